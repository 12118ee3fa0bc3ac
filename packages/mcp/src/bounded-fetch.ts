import type { FetchLike } from '@modelcontextprotocol/client';
import { BoundedLineReader, type DroppedLine, KEPT_EDGE_BYTES, lastBytes } from './bounded-line-reader.js';
import {
  droppedMessageId,
  MAX_MESSAGE_BYTES,
  type OversizedMessage,
  oversizedMessageError,
  oversizedMessageResponse,
} from './oversized-message.js';

/** Options of {@link boundedFetch}. */
export interface BoundedFetchOptions {
  /** Largest message accepted from the server (default 64 MiB); a larger one is dropped and its request fails. */
  maxMessageBytes?: number;
  /** Told of an event over the limit that answers no known request; it is dropped and the stream goes on. */
  onerror?: (error: Error) => void;
}

const LF = 0x0a;
const CR = 0x0d;
const NEWLINE = Buffer.from('\n');
const DATA_PREFIX = 'data: ';

/**
 * A fetch for the SDK's Streamable HTTP client transport that bounds what a server can make the
 * client hold, as the stdio transport does: a message over `maxMessageBytes` is dropped as it
 * arrives and the request it answered fails with a JSON-RPC error, while the connection goes on.
 *
 * - An event stream (a POST's `text/event-stream` answer, or the standalone GET stream, which the
 *   SDK reads as one whatever its type) is bounded per event, not per stream: an event whose
 *   `data` is over the limit becomes a `data:` line with the error for the id found in its first
 *   or last bytes; without an id it is dropped and reported to `onerror`.
 * - An `application/json` answer is one message: past the limit it is no longer read and becomes
 *   the error for the request(s) the POST carried.
 * - The body of an HTTP error (which the SDK reads whole into its error message) is cut at the limit.
 *
 * Other answers are returned as they are.
 */
export function boundedFetch(baseFetch: FetchLike = fetch, options: BoundedFetchOptions = {}): FetchLike {
  const { maxMessageBytes = MAX_MESSAGE_BYTES, onerror } = options;
  return async (url, init) => {
    const response = await baseFetch(url, init);
    const { body } = response;
    if (!body) return response;
    if (!response.ok) return withBody(response, cutBody(body, maxMessageBytes));
    const type = mediaType(response.headers.get('content-type'));
    if (type === 'text/event-stream' || asksForEventStream(init)) {
      return withBody(response, body.pipeThrough(boundEvents(maxMessageBytes, onerror)));
    }
    if (type === 'application/json') return withBody(response, boundJson(response, body, requestIds(init?.body), maxMessageBytes));
    return response;
  };
}

function mediaType(contentType: string | null): string | undefined {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase();
}

/** A GET asking for `text/event-stream`: the SDK's standalone stream, read as events whatever the answer's type. */
function asksForEventStream(init: RequestInit | undefined): boolean {
  const method = init?.method?.toUpperCase() ?? 'GET';
  return method === 'GET' && (new Headers(init?.headers).get('accept')?.includes('text/event-stream') ?? false);
}

/** `response` with another body (and so no `content-length` or `content-encoding`), keeping its status, headers and URL. */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers });
  // The SDK resolves a redirect's `Location` against the answer's URL, which `new Response` leaves empty.
  Object.defineProperty(bounded, 'url', { value: response.url });
  return bounded;
}

/** `body` up to `maxBytes`, then a marker; the rest is not read. */
function cutBody(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  const source = body.getReader();
  let bytes = 0;
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await source.read();
      if (done) return controller.close();
      if (bytes + value.length <= maxBytes) {
        bytes += value.length;
        return controller.enqueue(value);
      }
      controller.enqueue(value.subarray(0, maxBytes - bytes));
      controller.enqueue(Buffer.from(`\n[the rest of the answer, past ${maxBytes} bytes, was not read]`));
      controller.close();
      await source.cancel();
    },
    cancel: (reason) => source.cancel(reason),
  });
}

/** The requests a POST carried (its body is the JSON the SDK sent): whether it was a batch, and their ids. */
function requestIds(body: unknown): { batch: boolean; ids: (string | number)[] } {
  let sent: unknown;
  try {
    sent = typeof body === 'string' ? JSON.parse(body) : undefined;
  } catch {
    sent = undefined;
  }
  const messages: unknown[] = Array.isArray(sent) ? sent : [sent];
  const ids = messages.flatMap((message) => {
    if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) return [];
    const { id } = message;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
  return { batch: Array.isArray(sent), ids };
}

/** The declared length of a body that is not content-encoded (fetch hands over the decoded bytes). */
function declaredLength(response: Response): number | undefined {
  const encoding = response.headers.get('content-encoding');
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  return (!encoding || encoding === 'identity') && Number.isSafeInteger(length) ? length : undefined;
}

/**
 * A JSON answer: held until it ends (at most `maxBytes`, as the chunks it came in) and handed on,
 * or — past `maxBytes`, or declared longer — no longer read and answered with the error for each
 * request the POST carried (an error of the stream when it carried none).
 */
function boundJson(
  response: Response,
  body: ReadableStream<Uint8Array>,
  { batch, ids }: ReturnType<typeof requestIds>,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  const source = body.getReader();
  const refuse = async (controller: ReadableStreamDefaultController<Uint8Array>, message: OversizedMessage) => {
    await source.cancel();
    if (ids.length === 0) return controller.error(oversizedMessageError(message, maxBytes));
    const errors = ids.map((id) => oversizedMessageResponse(id, message, maxBytes));
    controller.enqueue(Buffer.from(JSON.stringify(batch ? errors : errors[0])));
    controller.close();
  };
  return new ReadableStream({
    async start(controller) {
      try {
        const declared = declaredLength(response);
        if (declared !== undefined && declared > maxBytes) return await refuse(controller, { bytes: declared });
        const chunks: Uint8Array[] = [];
        let bytes = 0;
        for (let read = await source.read(); !read.done; read = await source.read()) {
          bytes += read.value.length;
          if (bytes > maxBytes) return await refuse(controller, { bytes, atLeast: true });
          chunks.push(read.value);
        }
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => source.cancel(reason),
  });
}

/** The value of a `data` field line (`data`, `data:value` or `data: value`), or `undefined` for another line. */
function dataValue(line: Buffer): Buffer | undefined {
  if (line.length < 4 || line.toString('latin1', 0, 4) !== 'data') return undefined;
  if (line.length === 4) return line.subarray(4);
  if (line[4] !== 0x3a) return undefined;
  return line.subarray(line[5] === 0x20 ? 6 : 5);
}

/** An event's data so far: its lines, its length (lines joined by LF), whether it is being dropped, and its first and last bytes. */
interface EventData {
  lines: number;
  bytes: number;
  dropping: boolean;
  head: Buffer;
  tail: Buffer;
}

function noData(): EventData {
  return { lines: 0, bytes: 0, dropping: false, head: Buffer.alloc(0), tail: Buffer.alloc(0) };
}

/** Lines shorter than this are copied together, in blocks of {@link BLOCK_BYTES}. */
const SHORT_LINE_BYTES = 1024;
const BLOCK_BYTES = 64 * 1024;

/**
 * Lines held to be passed on later, each followed by LF: a long line as it came, short ones copied
 * together into blocks, so that many short lines cost their bytes, not an object each.
 */
class HeldLines {
  #parts: Buffer[] = [];
  #block = Buffer.alloc(0);
  /** Where the block's bytes not yet in `#parts` start, and where its free space starts. */
  #start = 0;
  #end = 0;

  add(line: Buffer): void {
    if (line.length >= SHORT_LINE_BYTES) {
      this.#seal();
      this.#parts.push(line, NEWLINE);
      return;
    }
    if (this.#end + line.length + 1 > this.#block.length) {
      this.#seal();
      this.#block = Buffer.allocUnsafe(BLOCK_BYTES);
      this.#start = this.#end = 0;
    }
    this.#end += line.copy(this.#block, this.#end);
    this.#block[this.#end++] = LF;
  }

  /** The lines held, as parts to pass on in order; none are held after. */
  take(): Buffer[] {
    this.#seal();
    const parts = this.#parts;
    this.clear();
    return parts;
  }

  clear(): void {
    this.#parts = [];
    this.#block = Buffer.alloc(0);
    this.#start = this.#end = 0;
  }

  #seal(): void {
    if (this.#end > this.#start) this.#parts.push(this.#block.subarray(this.#start, this.#end));
    this.#start = this.#end;
  }
}

/**
 * Bounds an event stream per event. Lines other than `data` lines are passed on as they come (the
 * SDK keeps only the last `id` and `event` of an event, so they cannot add up); an event's `data`
 * lines are held until the blank line ending it — at most `maxBytes` of data — and then passed on,
 * or, past `maxBytes`, dropped as they arrive (only the data's first and last bytes kept, to find
 * its JSON-RPC id) and replaced by one `data:` line with the error for that id.
 *
 * Lines end at LF, CR or CRLF, as in SSE; they are passed on ending at LF.
 */
function boundEvents(maxBytes: number, onerror: ((error: Error) => void) | undefined): TransformStream<Uint8Array, Uint8Array> {
  let output!: TransformStreamDefaultController<Uint8Array>;
  const held = new HeldLines();
  let data = noData();
  let afterCr = false;
  let midLine = false;

  /** Adds a data line to the event: its first and last bytes (all of it when kept), its length, and whether it was over the line limit. */
  const addData = (first: Buffer, last: Buffer, bytes: number, over: boolean) => {
    if (data.lines++ === 0) data.head = Buffer.from(first.subarray(0, KEPT_EDGE_BYTES));
    else data.bytes += 1;
    data.bytes += bytes;
    data.tail = lastBytes(last.length >= KEPT_EDGE_BYTES || data.lines === 1 ? last : Buffer.concat([data.tail, NEWLINE, last]));
    if (over || data.bytes > maxBytes) {
      data.dropping = true;
      held.clear();
    }
  };

  const endEvent = () => {
    if (data.dropping) {
      const message = { bytes: data.bytes };
      const id = droppedMessageId(data);
      if (id === undefined) onerror?.(oversizedMessageError(message, maxBytes));
      else output.enqueue(Buffer.from(`${DATA_PREFIX}${JSON.stringify(oversizedMessageResponse(id, message, maxBytes))}\n`));
    } else {
      for (const part of held.take()) output.enqueue(part);
    }
    output.enqueue(NEWLINE);
    data = noData();
  };

  const reader = new BoundedLineReader(maxBytes + DATA_PREFIX.length, {
    line(line) {
      const value = dataValue(line);
      if (value === undefined) {
        output.enqueue(line);
        output.enqueue(NEWLINE);
        return;
      }
      addData(value, value, value.length, false);
      if (!data.dropping) held.add(line);
    },
    dropped(line: DroppedLine) {
      // Only data adds up to a message; another field this long is left out.
      const value = dataValue(line.head);
      if (value) addData(value, line.tail, line.bytes - (line.head.length - value.length), true);
    },
    empty: endEvent,
  });

  /** `chunk` with its line ends as LF: a CR alone becomes LF, and the CR of a CRLF (also one split across chunks) goes. */
  const toLf = (chunk: Buffer): Buffer => {
    let start = afterCr && chunk[0] === LF ? 1 : 0;
    afterCr = false;
    let cr = chunk.indexOf(CR, start);
    if (cr === -1) return chunk.subarray(start);
    const out = Buffer.allocUnsafe(chunk.length - start);
    let length = 0;
    for (; cr !== -1; cr = chunk.indexOf(CR, start)) {
      length += chunk.copy(out, length, start, cr);
      out[length++] = LF;
      start = cr + 1;
      if (start === chunk.length) afterCr = true;
      else if (chunk[start] === LF) start++;
    }
    length += chunk.copy(out, length, start);
    return out.subarray(0, length);
  };

  return new TransformStream({
    start(controller) {
      output = controller;
    },
    transform(chunk) {
      const lines = toLf(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (lines.length === 0) return;
      midLine = lines[lines.length - 1] !== LF;
      reader.push(lines);
    },
    flush() {
      // An event the stream ended in is never dispatched; one being dropped still fails its request.
      if (midLine) reader.push(NEWLINE);
      if (data.dropping) endEvent();
    },
  });
}
