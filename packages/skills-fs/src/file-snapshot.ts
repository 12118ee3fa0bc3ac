import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { EditConflictError } from './edit-conflict-error.js';
import { errnoCode } from './errno-code.js';

/**
 * What an edit read of a file, to compare with the file right before the write replaces it:
 * absent, or its inode, size and mtime, and the SHA-256 of the bytes read when they were read
 * (which catches a same-size rewrite within one mtime tick).
 */
export type FileSnapshot = { exists: false } | { exists: true; ino: number; size: number; mtimeMs: number; sha256?: string };

/** The snapshot of a file that is not there. */
export const ABSENT: FileSnapshot = { exists: false };

/** Bytes hashed at a time when comparing a file on disk with its snapshot. */
const HASH_CHUNK_BYTES = 1024 * 1024;

/** The snapshot of a file with `stats`, and `bytes` when its content was read. */
export function snapshotOf(stats: Stats, bytes?: Uint8Array): FileSnapshot {
  const snapshot = { exists: true as const, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
  return bytes ? { ...snapshot, sha256: createHash('sha256').update(bytes).digest('hex') } : snapshot;
}

function sha256Of(fd: number): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  for (let position = 0; ; ) {
    const bytesRead = readSync(fd, buffer, 0, buffer.length, position);
    if (bytesRead === 0) return hash.digest('hex');
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
}

/**
 * The compare-and-swap check of an edit: throws an {@link EditConflictError} (naming `display`)
 * unless the file at `target` is still what `snapshot` recorded. Synchronous, like the hash it
 * computes: a file the edit skills load is at most `maxEditBytes`, and opening and `fstat` take
 * microseconds, less than a round trip through libuv's thread pool.
 */
export function assertUnchanged(target: string, snapshot: FileSnapshot, display: string): void {
  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    // ELOOP: a symlink took its place (the write refuses to replace one anyway).
    if (code === 'ELOOP') throw new EditConflictError(display, 'changed');
    if (code !== 'ENOENT') throw error;
    if (snapshot.exists) throw new EditConflictError(display, 'removed');
    return;
  }
  try {
    if (!snapshot.exists) throw new EditConflictError(display, 'created');
    const stats = fstatSync(fd);
    const same = stats.ino === snapshot.ino && stats.size === snapshot.size && stats.mtimeMs === snapshot.mtimeMs;
    if (!same || (snapshot.sha256 !== undefined && sha256Of(fd) !== snapshot.sha256)) throw new EditConflictError(display, 'changed');
  } finally {
    closeSync(fd);
  }
}
