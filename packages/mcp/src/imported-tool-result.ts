import type { CallToolResult } from '@modelcontextprotocol/client';
import { type JsonValue, ToolResult } from '@nexus/core';

/** Most text of one imported tool's result kept in the output; the rest is cut with a marker. */
export const MAX_IMPORTED_OUTPUT_BYTES = 1024 * 1024;

type Content = CallToolResult['content'][number];

function base64Bytes(data: string): number {
  return Buffer.byteLength(data, 'base64');
}

function describeContent(item: Content): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return `[${item.type}: ${item.mimeType}, ${base64Bytes(item.data)} bytes]`;
    case 'resource': {
      const { resource } = item;
      if ('text' in resource && typeof resource.text === 'string') return resource.text;
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${base64Bytes('blob' in resource ? resource.blob : '')} bytes]`;
    }
    case 'resource_link':
      return `[resource link: ${item.uri}${item.mimeType ? `, ${item.mimeType}` : ''}]`;
    default:
      return `[${(item as { type: string }).type} content]`;
  }
}

/** Cuts `text` to at most `maxBytes` of UTF-8 (never inside a character) and says how much was left out. */
function capText(text: string, maxBytes: number): string {
  // Counted, not copied: most outputs fit, and a copy of each would be garbage.
  const length = Buffer.byteLength(text);
  if (length <= maxBytes) return text;
  const kept = new TextDecoder().decode(Buffer.from(text).subarray(0, maxBytes)).replace(/\uFFFD$/, '');
  return `${kept}\n[output truncated: ${length - Buffer.byteLength(kept)} of ${length} bytes left out]`;
}

/**
 * An MCP `tools/call` result as a {@link ToolResult}: text and resource content as the output
 * (images and other binary content described, the whole capped at `maxBytes` with a marker),
 * `structuredContent` as `data`, and `isError: true` as a failure carrying the server's text.
 */
export function fromCallToolResult(result: CallToolResult, maxBytes = MAX_IMPORTED_OUTPUT_BYTES): ToolResult {
  const text = capText((result.content ?? []).map(describeContent).join('\n'), maxBytes);
  const data = result.structuredContent as JsonValue | undefined;
  if (result.isError)
    return ToolResult.fail(
      text || 'The MCP server reported an error without a message.',
      'execution_failed',
      data === undefined ? {} : { data },
    );
  return ToolResult.ok(text, data);
}
