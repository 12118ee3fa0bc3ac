export type { AuditRecord, AuditSink, ConfirmedBy } from './audit-record.js';
export { MAX_AUDITED_STRING } from './audit-record.js';
export type { AfterCallHook, BeforeCallAnswer, BeforeCallHook, CallerIdentity, CallHooks, CallInfo } from './call-hooks.js';
export type { ChangingSkillFamily, RegistryChange } from './changing-family.js';
export type { ExecuteOptions, SkillRegistryOptions } from './execute-pipeline.js';
export { DEFAULT_EXECUTION_TIMEOUT_MS } from './execute-pipeline.js';
export { SUPPORTED_KEYWORDS } from './schema-shape.js';
export type { DefinitionOptions } from './skill-catalogue.js';
export { SkillRegistry } from './skill-registry.js';
export type {
  AnthropicToolDefinition,
  DefinitionFormat,
  McpToolDefinition,
  OpenAiToolDefinition,
  ToolDefinitionByFormat,
  ToolDefinitionOptions,
} from './tool-definitions.js';
export type { MatchedRule, RuleCatalogue } from './tool-rules.js';
export { checkToolRules } from './tool-rules.js';
export type { EchoArguments, SleepArguments } from './utility-family.js';
export { echoSkill, MAX_SLEEP_SECONDS, sleepSkill, utilitySkills } from './utility-family.js';
