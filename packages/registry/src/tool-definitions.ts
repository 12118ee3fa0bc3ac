import { expectOption, type JsonSchemaObject, type SkillSpec } from '@nexus/core';

/** Wire formats for tool definitions. */
export type DefinitionFormat = 'openai' | 'anthropic' | 'mcp';

/** OpenAI chat-completions tool. */
export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchemaObject };
}

/** Anthropic messages-API tool. */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
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

const FORMATTERS: { [F in DefinitionFormat]: (spec: Metadata) => ToolDefinitionByFormat[F] } = {
  openai: ({ name, description, parameters }) => ({ type: 'function', function: { name, description, parameters } }),
  anthropic: ({ name, description, parameters }) => ({ name, description, input_schema: parameters }),
  mcp: ({ name, description, parameters, readOnly = false, destructive = false }) => ({
    name,
    description,
    inputSchema: parameters,
    annotations: { readOnlyHint: readOnly, destructiveHint: destructive },
  }),
};

/** Formats one skill's metadata as a tool definition. */
export function toToolDefinition<F extends DefinitionFormat>(spec: Metadata, format: F): ToolDefinitionByFormat[F] {
  const formatter = FORMATTERS[format];
  expectOption(formatter !== undefined, 'format', 'one of openai, anthropic, mcp', format);
  return formatter(spec);
}
