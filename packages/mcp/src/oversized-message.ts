import { INTERNAL_ERROR, type JSONRPCMessage } from '@modelcontextprotocol/client';

/** Largest message an imported server may send by default (one result of up to 64 MiB), over any transport. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** What is known of a message that was over the limit and dropped. */
export interface OversizedMessage {
  /** Its length in bytes, or — with `atLeast` — how much of it was read before it was given up. */
  bytes: number;
  atLeast?: boolean;
}

/** A top-level JSON-RPC `id` where servers write it: first (after `jsonrpc`) or last. */
const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const TRAILING_ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/** The JSON-RPC `id` of a dropped message, from its first and last bytes (the rest was not kept). */
export function droppedMessageId({ head, tail }: { head: Buffer; tail: Buffer }): string | number | undefined {
  const match = LEADING_ID.exec(head.toString('latin1')) ?? TRAILING_ID.exec(tail.toString('latin1'));
  return match ? (JSON.parse(match[1] as string) as string | number) : undefined;
}

function describe({ bytes, atLeast = false }: OversizedMessage, maxMessageBytes: number): string {
  return `The server sent a message of ${atLeast ? 'at least ' : ''}${bytes} bytes, over the limit of ${maxMessageBytes} bytes; it was dropped`;
}

/** The answer standing in for a dropped message that answered request `id`: a JSON-RPC error, so the request fails at once. */
export function oversizedMessageResponse(id: string | number, message: OversizedMessage, maxMessageBytes: number): JSONRPCMessage {
  const data = { droppedBytes: message.bytes, maxMessageBytes };
  return { jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: `${describe(message, maxMessageBytes)}.`, data } };
}

/** What a transport reports (`onerror`) for a dropped message whose request is unknown. */
export function oversizedMessageError(message: OversizedMessage, maxMessageBytes: number): Error {
  return new Error(`${describe(message, maxMessageBytes)} (no request id found in it).`);
}
