import { closeSync, read, readSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';

/** Size of one read. */
export const CHUNK_BYTES = 64 * 1024;

const readAt = promisify(read);

/**
 * A regular file open for reading in chunks of at most {@link CHUNK_BYTES}, no further than the
 * size it had when it was opened (so what is shown matches the version the read tracker records,
 * and no read is spent only to learn that the file ended). A size of 0 means unknown (`/proc`
 * files): then reading goes on until a read returns nothing.
 *
 * The first chunk, the {@link head}, is read synchronously when the reader is made: from the page
 * cache that takes microseconds, far less than a round trip through libuv's thread pool, and
 * every text read needs it (binary detection, the first lines, all of a small file). Later chunks
 * go through the thread pool, so a huge file never holds up the event loop.
 */
export class ChunkReader {
  /** Real path the sandbox approved. */
  readonly path: string;
  /** The file's stats when it was opened. */
  readonly stats: Stats;
  /** The bytes from the start of the file, up to one chunk. */
  readonly head: Buffer;
  readonly #fd: number;

  /** Takes over `fd`, an open descriptor of the regular file `path`; {@link close} closes it. */
  constructor(fd: number, path: string, stats: Stats) {
    this.#fd = fd;
    this.path = path;
    this.stats = stats;
    const head = Buffer.allocUnsafe(stats.size === 0 ? CHUNK_BYTES : Math.min(CHUNK_BYTES, stats.size));
    this.head = head.subarray(0, readSync(fd, head, 0, head.length, 0));
  }

  /** Size in bytes when the file was opened. */
  get size(): number {
    return this.stats.size;
  }

  /** Up to `length` bytes at `position` (fewer at the end of the file, none past it). */
  async read(position: number, length: number = CHUNK_BYTES): Promise<Buffer> {
    if (position < this.head.length) return this.head.subarray(position, Math.min(position + length, this.head.length));
    const wanted = this.size === 0 ? length : Math.min(length, this.size - position);
    // An empty head: the first read already found the end.
    if (wanted <= 0 || this.head.length === 0) return Buffer.alloc(0);
    const buffer = Buffer.allocUnsafe(wanted);
    const { bytesRead } = await readAt(this.#fd, buffer, 0, wanted, position);
    return buffer.subarray(0, bytesRead);
  }

  /** Closes the file; call it once, after the last {@link read} has settled. */
  close(): void {
    closeSync(this.#fd);
  }
}
