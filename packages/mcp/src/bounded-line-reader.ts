/** How much of an oversized line's start and end is kept, to find its JSON-RPC `id`. */
export const KEPT_EDGE_BYTES = 256;

/** What is known of a line that was longer than the limit and dropped. */
export interface DroppedLine {
  /** Its first bytes. */
  head: Buffer;
  /** Its last bytes (before the newline). */
  tail: Buffer;
  /** Its whole length, in bytes. */
  bytes: number;
}

/** What {@link BoundedLineReader} reports. */
export interface LineHandlers {
  line(line: Buffer): void;
  dropped(line: DroppedLine): void;
  /** An empty line; without this handler, empty lines are skipped. */
  empty?(): void;
}

/**
 * Splits a byte stream into newline-ended lines of at most `maxLineBytes`, holding at most that
 * much: a longer line is dropped as it arrives — only its first and last bytes are kept, so the
 * reader's memory stays bounded whatever a peer sends — and reported once its newline comes. A
 * line's chunks are joined once, when it ends (not at every chunk, which costs quadratic copying
 * for a large message).
 */
export class BoundedLineReader {
  readonly #maxLineBytes: number;
  readonly #handlers: LineHandlers;
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Set while the current line is being dropped. */
  #dropping: { head: Buffer; tail: Buffer } | undefined;

  constructor(maxLineBytes: number, handlers: LineHandlers) {
    this.#maxLineBytes = maxLineBytes;
    this.#handlers = handlers;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.#append(chunk.subarray(start, end));
      this.#endLine();
      start = end + 1;
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  /** Forgets a partial line. */
  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
    this.#dropping = undefined;
  }

  #append(part: Buffer): void {
    if (part.length === 0) return;
    this.#bytes += part.length;
    if (this.#dropping) {
      // A part as long as the kept tail replaces it: copying every part of a large line would double its garbage.
      this.#dropping.tail = lastBytes(part.length >= KEPT_EDGE_BYTES ? part : Buffer.concat([this.#dropping.tail, part]));
      return;
    }
    this.#chunks.push(part);
    if (this.#bytes <= this.#maxLineBytes) return;
    this.#dropping = { head: edgeBytes(this.#chunks, 'head'), tail: edgeBytes(this.#chunks, 'tail') };
    this.#chunks = [];
  }

  #endLine(): void {
    const dropping = this.#dropping;
    if (dropping) this.#handlers.dropped({ ...dropping, bytes: this.#bytes });
    else if (this.#bytes > 0) this.#handlers.line(this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks));
    else this.#handlers.empty?.();
    this.clear();
  }
}

/** The last {@link KEPT_EDGE_BYTES} bytes of `buffer`, copied out of it. */
export function lastBytes(buffer: Buffer): Buffer {
  return Buffer.from(buffer.subarray(Math.max(0, buffer.length - KEPT_EDGE_BYTES)));
}

/** The first or last bytes of a line held as chunks, copied out of them. */
function edgeBytes(chunks: readonly Buffer[], edge: 'head' | 'tail'): Buffer {
  const picked: Buffer[] = [];
  let length = 0;
  for (let index = 0; index < chunks.length && length < KEPT_EDGE_BYTES; index++) {
    const chunk = chunks[edge === 'head' ? index : chunks.length - 1 - index] as Buffer;
    if (edge === 'head') picked.push(chunk);
    else picked.unshift(chunk);
    length += chunk.length;
  }
  const joined = Buffer.concat(picked);
  return edge === 'head' ? Buffer.from(joined.subarray(0, KEPT_EDGE_BYTES)) : lastBytes(joined);
}
