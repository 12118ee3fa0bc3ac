import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Options of {@link atomicWriteBytes}. */
export interface AtomicWriteOptions {
  /** File mode of the result; default: the existing file's mode, or 0o666 less the umask for a new file. */
  mode?: number;
}

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
 * Replaces `target` with `data` so that a crash at any moment leaves either the complete old
 * content or the complete new content: the bytes go to a temporary file in the same directory,
 * are flushed to disk, and the temporary file is renamed over the target. The existing file's
 * mode is kept. A symlink at `target` is replaced, not followed; validate the path first.
 */
export async function atomicWriteBytes(target: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const mode = options.mode ?? (await existingMode(target));
  const directory = dirname(target);
  const temporary = join(directory, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', mode ?? 0o666);
  try {
    await handle.writeFile(data);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    await rename(temporary, target);
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await syncDirectory(directory);
}
