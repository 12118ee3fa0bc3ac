export type { ValidationOutcome } from './parameter-validator.js';
export { ParameterValidator } from './parameter-validator.js';
export { checkSchemaShape, SUPPORTED_KEYWORDS } from './schema-shape.js';
export type { DefinitionOptions, ExecuteOptions, SkillRegistryOptions } from './skill-registry.js';
export { DEFAULT_EXECUTION_TIMEOUT_MS, SkillRegistry } from './skill-registry.js';
export type {
  AnthropicToolDefinition,
  DefinitionFormat,
  McpToolDefinition,
  OpenAiToolDefinition,
  ToolDefinitionByFormat,
} from './tool-definitions.js';
export { toToolDefinition } from './tool-definitions.js';
export { echoSkill, MAX_SLEEP_SECONDS, sleepSkill, utilitySkills } from './utility-skills.js';
