import type { Stats } from 'node:fs';
import { statSync } from 'node:fs';

/** What tells a file's versions apart: modification time, size and inode (an editor's atomic rename changes the inode). */
export function fileStamp(info: Pick<Stats, 'mtimeMs' | 'size' | 'ino'>): string {
  return `${info.mtimeMs}:${info.size}:${info.ino}`;
}

/** The stamp of `path` now, or `missing`. Synchronous: a few stat calls cost less than scheduling them. */
export function currentStamp(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false });
  return info ? fileStamp(info) : 'missing';
}
