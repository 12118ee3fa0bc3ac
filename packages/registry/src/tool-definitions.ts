import { expectOption, type JsonSchemaObject, type SkillSpec } from '@nexus/core';
import { toObjectRoot } from './object-root.js';
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

/** MCP `tools/list` entry. `title`, `outputSchema` and the idempotent and open-world hints are there when the skill declares them. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  annotations: { title?: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint?: true; openWorldHint?: true };
}

/** The definition type of each format. */
export interface ToolDefinitionByFormat {
  openai: OpenAiToolDefinition;
  anthropic: AnthropicToolDefinition;
  mcp: McpToolDefinition;
}

type Metadata = Pick<
  SkillSpec,
  'name' | 'description' | 'parameters' | 'readOnly' | 'destructive' | 'title' | 'idempotent' | 'openWorld' | 'outputSchema'
>;

/** The parameters schema to send, and sentences about the arguments it does not say, for the description. */
type SentSchema = Pick<StrictSchema, 'schema' | 'rules'>;

/** What a formatter gets: the skill's metadata, the schema to send, and whether that schema is the provider's strict form. */
type Formatter<F extends DefinitionFormat> = (spec: Metadata, sent: SentSchema, strict: boolean) => ToolDefinitionByFormat[F];

const withRules = (description: string, rules: readonly string[]) => [description, ...rules].join('\n\n');

const FORMATTERS: { [F in DefinitionFormat]: Formatter<F> } = {
  openai: ({ name, description }, { schema, rules }, strict) => ({
    type: 'function',
    function: { name, description: withRules(description, rules), parameters: schema, ...(strict ? { strict: true as const } : {}) },
  }),
  anthropic: ({ name, description }, { schema, rules }, strict) => ({
    name,
    description: withRules(description, rules),
    input_schema: schema,
    ...(strict ? { strict: true as const } : {}),
  }),
  mcp: ({ name, description, readOnly = false, destructive = false, title, idempotent, openWorld, outputSchema }, { schema, rules }) => ({
    name,
    ...(title === undefined ? {} : { title }),
    description: withRules(description, rules),
    inputSchema: schema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    annotations: {
      ...(title === undefined ? {} : { title }),
      readOnlyHint: readOnly,
      destructiveHint: destructive,
      ...(idempotent ? { idempotentHint: true as const } : {}),
      ...(openWorld ? { openWorldHint: true as const } : {}),
    },
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

/**
 * Formats one skill's metadata as a tool definition. Every format gets an object root without
 * top-level combinators ({@link toObjectRoot}; MCP too, since MCP hosts hand a tool's
 * `inputSchema` to these providers as it is), its alternatives said in the description.
 */
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
  return formatter(spec, strictSchema ?? toObjectRoot(spec.parameters), strictSchema !== undefined);
}
