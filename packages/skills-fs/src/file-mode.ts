import type { Stats } from 'node:fs';

/** The kind of a filesystem entry, in one word. */
export function entryKind(stats: Stats): string {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  return 'unknown';
}

/** `ls -l` style mode string, e.g. `drwxr-xr-x` or `-rw-r--r--`. */
export function modeString(stats: Stats): string {
  const type = stats.isDirectory()
    ? 'd'
    : stats.isSymbolicLink()
      ? 'l'
      : stats.isFIFO()
        ? 'p'
        : stats.isSocket()
          ? 's'
          : stats.isCharacterDevice()
            ? 'c'
            : stats.isBlockDevice()
              ? 'b'
              : '-';
  const bits = 'rwxrwxrwx';
  let permissions = '';
  for (let index = 0; index < 9; index++) permissions += stats.mode & (1 << (8 - index)) ? bits[index] : '-';
  return type + permissions;
}
