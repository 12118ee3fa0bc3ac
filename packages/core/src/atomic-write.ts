import type { Stats } from 'node:fs';
import { type FileHandle, link, lstat, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PathSecurityError } from './errors.js';
import { temporaryName } from './scratch-files.js';
import { sweepScratchFiles } from './scratch-sweep.js';
import { refusePlantedSymlink, withVerifiedDirectory } from './verified-open.js';

/** Options of {@link atomicWriteVerified}. */
export interface AtomicWriteOptions {
  /** File mode of the result; default: the existing file's mode, or 0o666 less the umask for a new file. */
  mode?: number;
  /** Never replace an existing file: fail with `EEXIST` instead (the new file is linked into place, not renamed). */
  exclusive?: boolean;
  /**
   * Compare-and-swap: called right before the new content replaces the target, once it is on
   * disk, with a path to the target (pinned to the parent directory's handle). Throw to leave the
   * target as it is; the temporary file is removed and the error passes through.
   */
  checkTarget?: (target: string) => void | Promise<void>;
}

/** The new content of an atomic write: bytes, or a function that writes it through the temporary file's handle. */
export type AtomicContent = Uint8Array | ((handle: FileHandle) => Promise<void>);

async function existingMode(target: string): Promise<number | undefined> {
  try {
    return (await stat(target)).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` with `content` so that a crash at any moment leaves either the complete old
 * content or the complete new content: the bytes go to a temporary file in the same directory
 * (`.<name>.nexus-tmp-<pid>-<random>`), are flushed to disk, and the temporary file is renamed
 * over the target. The existing file's mode is kept. A symlink at `target` is replaced, not
 * followed; validate the path first.
 */
export async function atomicWriteBytes(target: string, content: AtomicContent, options: AtomicWriteOptions = {}): Promise<void> {
  const { exclusive = false, checkTarget } = options;
  const mode = options.mode ?? (exclusive ? undefined : await existingMode(target));
  const directory = dirname(target);
  const temporary = join(directory, temporaryName(target));
  const handle = await open(temporary, 'wx', mode ?? 0o666);
  try {
    if (typeof content === 'function') await content(handle);
    else await handle.writeFile(content);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    await checkTarget?.(target);
    if (exclusive) {
      await link(temporary, target);
      await unlink(temporary);
    } else await rename(temporary, target);
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await syncDirectory(directory);
}

function describeSpecialFile(stats: Stats): string | undefined {
  if (stats.isFile() || stats.isSymbolicLink()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Refuses to write over `entry` (pinned to a verified directory) unless it is a regular file or
 * absent: a symlink there was planted after the check, and a FIFO, socket or device (`/dev/null`)
 * must never be replaced by a regular file.
 */
async function refuseUnwritableTarget(entry: string, realPath: string): Promise<void> {
  await refusePlantedSymlink(entry, realPath);
  const stats = await lstat(entry).catch(() => undefined);
  const special = stats && describeSpecialFile(stats);
  if (special)
    throw new PathSecurityError({ path: realPath, reason: `it is ${special}, not a regular file; only regular files are written` });
}

/**
 * Atomically replaces the approved real path `real` with `content` ({@link atomicWriteBytes}:
 * the old or the new content survives a crash, the mode is kept), through a verified handle of
 * the parent directory, so neither a swapped parent nor a symlink planted at the target can
 * redirect the write. Only a regular file is replaced (a FIFO, socket, device or directory is
 * refused, also when one appears during the write), `options.checkTarget` runs right before the
 * rename (compare-and-swap), and `options.exclusive` never replaces anything. Afterwards,
 * temporary and lock files that writers which died left in the directory are removed. The
 * parent directory must exist. Returns the written file's stats, or `undefined` when something
 * removed it right after the write.
 */
export async function atomicWriteVerified(
  real: string,
  content: AtomicContent,
  options: AtomicWriteOptions = {},
): Promise<Stats | undefined> {
  return withVerifiedDirectory(dirname(real), async (directory) => {
    const target = directory.entry(basename(real));
    await refuseUnwritableTarget(target, real);
    const checkTarget = async (entry: string) => {
      await refuseUnwritableTarget(entry, real);
      await options.checkTarget?.(entry);
    };
    await atomicWriteBytes(target, content, { ...options, checkTarget });
    const stats = await lstat(target).catch(() => undefined);
    await sweepScratchFiles(directory);
    return stats;
  });
}
