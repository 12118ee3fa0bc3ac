import { expectOption, type JsonSchemaObject, type SkillSpec } from '@nexus/core';
import { type StrictDialect, type StrictSchema, toStrictSchema } from './strict-schema.js';

/** Wire formats for tool definitions. */
export type DefinitionFormat = 'openai' | 'anthropic' | 'mcp';

/** OpenAI chat-completions tool. `strict: true` is there when the parameters follow OpenAI's strict function-calling rules. */
export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchemaObject; strict?: true };
}

/** Anthropic messages-API tool. `strict: true` is there when the input schema follows Anthropic's strict tool-use rules. */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
  strict?: true;
}

/** MCP `tools/list` entry. */
export interface McpToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean };
}

/** The definition type of each format. */
export interface ToolDefinitionByFormat {
  openai: OpenAiToolDefinition;
  anthropic: AnthropicToolDefinition;
  mcp: McpToolDefinition;
}

type Metadata = Pick<SkillSpec, 'name' | 'description' | 'parameters' | 'readOnly' | 'destructive'>;

/** What a formatter gets: the skill's metadata and, when strict definitions were asked for and exist, the strict schema. */
type Formatter<F extends DefinitionFormat> = (spec: Metadata, strict: StrictSchema | undefined) => ToolDefinitionByFormat[F];

const withRules = (description: string, strict: StrictSchema) => [description, ...strict.rules].join('\n\n');

const FORMATTERS: { [F in DefinitionFormat]: Formatter<F> } = {
  openai: ({ name, description, parameters }, strict) => ({
    type: 'function',
    function: strict
      ? { name, description: withRules(description, strict), parameters: strict.schema, strict: true }
      : { name, description, parameters },
  }),
  anthropic: ({ name, description, parameters }, strict) =>
    strict
      ? { name, description: withRules(description, strict), input_schema: strict.schema, strict: true }
      : { name, description, input_schema: parameters },
  mcp: ({ name, description, parameters, readOnly = false, destructive = false }) => ({
    name,
    description,
    inputSchema: parameters,
    annotations: { readOnlyHint: readOnly, destructiveHint: destructive },
  }),
};

// Definitions are built for every model request, so each schema is converted once per dialect (null: it has no strict form).
const strictSchemas: Record<StrictDialect, WeakMap<JsonSchemaObject, StrictSchema | null>> = {
  openai: new WeakMap(),
  anthropic: new WeakMap(),
};

function strictSchemaOf(parameters: JsonSchemaObject, dialect: StrictDialect): StrictSchema | undefined {
  const cache = strictSchemas[dialect];
  let strict = cache.get(parameters);
  if (strict === undefined) {
    strict = toStrictSchema(parameters, dialect) ?? null;
    cache.set(parameters, strict);
  }
  return strict ?? undefined;
}

/** Options of {@link toToolDefinition}. */
export interface ToolDefinitionOptions {
  /** Follow the provider's strict rules where the schema allows it (OpenAI and Anthropic; MCP ignores it). */
  strict?: boolean;
}

/** Formats one skill's metadata as a tool definition. */
export function toToolDefinition<F extends DefinitionFormat>(
  spec: Metadata,
  format: F,
  options: ToolDefinitionOptions = {},
): ToolDefinitionByFormat[F] {
  const { strict = false } = options;
  const formatter = FORMATTERS[format];
  expectOption(formatter !== undefined, 'format', 'one of openai, anthropic, mcp', format);
  expectOption(typeof strict === 'boolean', 'strict', 'a boolean', strict);
  const strictSchema = strict && format !== 'mcp' ? strictSchemaOf(spec.parameters, format as StrictDialect) : undefined;
  return formatter(spec, strictSchema);
}
