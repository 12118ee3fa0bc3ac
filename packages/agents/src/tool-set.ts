import type { SkillRegistry } from '@nexus/registry';
import { jsonSchema, type ToolSet } from 'ai';
import type { ProviderType } from './agent-settings.js';

/** The tools one turn offers the model. */
export interface TurnTools {
  /** AI SDK tools without `execute`: the loop runs every call through `registry.execute`. */
  readonly set: ToolSet;
  /** The definitions as sent, for counting tokens. */
  readonly json: string;
}

/**
 * The tools the registry's policy enables, as AI SDK tools. Schemas are passed through
 * `jsonSchema()` without a validator: the registry's ajv stays the only argument validator.
 * With `strict`, each tool whose schema has a strict form in the provider's dialect (Anthropic's,
 * or OpenAI's for the others) is sent in that form with `strict: true`.
 */
export function turnTools(registry: SkillRegistry, type: ProviderType, strict: boolean): TurnTools {
  const permissions = registry.services.getPermissions();
  const definitions = <F extends 'openai' | 'anthropic'>(format: F) =>
    permissions
      ? registry.getDefinitionsForPermissions<F>(permissions, { format, strict })
      : registry.getDefinitions<F>({ format, strict });
  const tools =
    type === 'anthropic'
      ? definitions('anthropic').map(({ name, description, input_schema, strict }) => ({ name, description, schema: input_schema, strict }))
      : definitions('openai').map(({ function: { name, description, parameters, strict } }) => ({
          name,
          description,
          schema: parameters,
          strict,
        }));
  const set: ToolSet = {};
  for (const tool of tools) {
    set[tool.name] = {
      description: tool.description,
      inputSchema: jsonSchema(tool.schema as Parameters<typeof jsonSchema>[0]),
      ...(tool.strict ? { strict: true } : {}),
    };
  }
  return { set, json: JSON.stringify(tools) };
}
