import type { CallToolResult } from '@modelcontextprotocol/server';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolResult } from '@nexus/core';

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns a {@link ToolResult} into an MCP `tools/call` result: the output (or, on failure, the
 * error message with `isError: true`) as text, and `data` as `structuredContent` when it is an
 * object — MCP only allows objects there. A failure of a tool that declares an `outputSchema`
 * carries no `structuredContent`: its data is error detail, which clients would validate against
 * the schema (the 1.x SDK's client does, failures included).
 */
export function toCallToolResult(result: ToolResult, outputSchema?: JsonSchemaObject): CallToolResult {
  const call: CallToolResult = { content: [{ type: 'text', text: result.text }] };
  if (!result.success) call.isError = true;
  if (isJsonObject(result.data) && (result.success || outputSchema === undefined)) call.structuredContent = result.data;
  return call;
}
