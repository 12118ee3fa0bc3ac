import { type JSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown) => typeof value === 'string' || Number.isInteger(value);
const hasOnly = (message: Fields, keys: readonly string[]) => Object.keys(message).every((key) => keys.includes(key));

const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'];
const RESULT_KEYS = ['jsonrpc', 'id', 'result'];
const ERROR_KEYS = ['jsonrpc', 'id', 'error'];

/**
 * Whether `value` is a JSON-RPC 2.0 message by its envelope, as the SDK's `JSONRPCMessageSchema`
 * has it: a request or notification (`method`, `params` an object if any), a result (an object) or
 * an error (`code` a whole number, `message` a string), with no other members. What the envelope
 * carries (`params._meta`, a result's or error's fields) the SDK validates by the message's kind.
 */
function hasJsonRpcEnvelope(value: unknown): value is JSONRPCMessage {
  if (!isObject(value) || value.jsonrpc !== '2.0') return false;
  if ('method' in value)
    return (
      typeof value.method === 'string' &&
      (value.params === undefined || isObject(value.params)) &&
      (value.id === undefined || isId(value.id)) &&
      hasOnly(value, REQUEST_KEYS)
    );
  if ('result' in value) return isId(value.id) && isObject(value.result) && hasOnly(value, RESULT_KEYS);
  const { error } = value;
  return (
    (value.id === undefined || isId(value.id)) &&
    isObject(error) &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string' &&
    hasOnly(value, ERROR_KEYS)
  );
}

/**
 * One line of a stdio stream as a JSON-RPC message, its envelope checked as {@link JsonRpcLines}
 * does (what it carries is for the SDK to validate by the message's kind). Throws a `SyntaxError`
 * for a line that is not JSON, an `Error` for JSON that is no JSON-RPC message.
 */
export function parseJsonRpcMessage(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  if (hasJsonRpcEnvelope(value)) return value;
  throw new Error(`Not a JSON-RPC message: ${line.slice(0, 200)}`);
}

/**
 * Cuts stdio's byte stream into JSON-RPC messages as the SDK's `ReadBuffer` does — newline
 * delimited, a trailing `\r` dropped, lines that are not JSON skipped, at most
 * `STDIO_DEFAULT_MAX_BUFFER_SIZE` bytes waiting — but checks each message's envelope only instead
 * of parsing it with the SDK's zod union: the SDK validates every message again by its kind once
 * the transport hands it on, and the union cost as much again per message.
 */
export class JsonRpcLines {
  #buffer: Buffer | undefined;

  /** Adds bytes read; throws, and drops what waited, past the size limit. */
  append(chunk: Buffer): void {
    if ((this.#buffer?.length ?? 0) + chunk.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes`);
    }
    this.#buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk]) : chunk;
  }

  /** The next complete message, or `null`; throws for a line that is JSON but no JSON-RPC message (and drops it). */
  readMessage(): JSONRPCMessage | null {
    while (this.#buffer) {
      const end = this.#buffer.indexOf('\n');
      if (end === -1) return null;
      const line = this.#buffer.toString('utf8', 0, end > 0 && this.#buffer[end - 1] === 0x0d ? end - 1 : end);
      // Nothing left: undefined, not an empty view the next chunk would be copied onto.
      this.#buffer = end + 1 < this.#buffer.length ? this.#buffer.subarray(end + 1) : undefined;
      try {
        return parseJsonRpcMessage(line);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    return null;
  }

  /** Drops what waits. */
  clear(): void {
    this.#buffer = undefined;
  }
}
