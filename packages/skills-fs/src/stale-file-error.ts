import { NexusError } from '@nexus/core';

/**
 * Thrown when a write would overwrite a file the agent has not read, or that changed since: a
 * recoverable `forbidden` result that says to read the file first, with `{ path, reason }` as data.
 */
export class StaleFileError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/skills-fs/StaleFileError');
  static override readonly code = 'STALE_FILE';
  static override readonly kind = 'forbidden';
  /** The file as shown to the LLM. */
  readonly path: string;
  /** `unread`: never read in this session; `changed`: changed on disk since it was last read. */
  readonly reason: 'unread' | 'changed';
  constructor(path: string, reason: 'unread' | 'changed') {
    const why =
      reason === 'unread'
        ? 'it exists and has not been read in this session; read it first (read_file), then retry'
        : 'it changed on disk since it was last read; read it again (read_file), then retry';
    super(`Refusing to overwrite ${path}: ${why}.`, { recoverable: true, data: { path, reason } });
    this.path = path;
    this.reason = reason;
  }
}
