/** Any value that survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A JSON Schema (draft 2020-12 subset) describing a skill's parameters. The root is always an
 * object schema; this is the wire contract an LLM or MCP client sees.
 */
export interface JsonSchemaObject {
  type: 'object';
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  [keyword: string]: unknown;
}

/** Any JSON Schema node. Kept loose on purpose: ajv in the registry is the judge of validity. */
export type JsonSchema = { [keyword: string]: unknown } | boolean;
