import { lstat, readdir, unlink } from 'node:fs/promises';
import { removeStaleLockFile } from './lock-file.js';
import { isLockName, isStaleTemporary } from './scratch-files.js';
import type { VerifiedDirectory } from './verified-open.js';

/** A directory is swept at most this often by one process: listing a directory of 20,000 files takes ~40 ms. */
const SWEEP_INTERVAL_MS = 60_000;
/** Directories whose last sweep is remembered. */
const MAX_REMEMBERED = 1024;

/** When each directory was last swept, oldest first. */
const lastSweeps = new Map<string, number>();

function isDue(directory: string, now: number): boolean {
  const last = lastSweeps.get(directory);
  if (last !== undefined && now - last < SWEEP_INTERVAL_MS) return false;
  lastSweeps.delete(directory);
  lastSweeps.set(directory, now);
  if (lastSweeps.size > MAX_REMEMBERED) lastSweeps.delete(lastSweeps.keys().next().value as string);
  return true;
}

/**
 * Removes what writers that died left in `directory`: temporary files of atomic writes and lock
 * files whose owner is gone (see `isStaleTemporary` and the lock's rules) — in the lock directory,
 * and beside files, where earlier versions kept their locks. Runs at most once a minute per
 * directory and process; never throws (a sweep must not fail the write that made it).
 */
export async function sweepScratchFiles(directory: VerifiedDirectory): Promise<void> {
  if (!isDue(directory.path, Date.now())) return;
  try {
    for (const name of await readdir(directory.entry('.'))) {
      const entry = directory.entry(name);
      if (isLockName(name)) await removeStaleLockFile(directory, name).catch(() => {});
      else if (name.includes('.nexus-tmp-')) {
        const stats = await lstat(entry).catch(() => undefined);
        if (stats?.isFile() && isStaleTemporary(name, stats.mtimeMs)) await unlink(entry).catch(() => {});
      }
    }
  } catch {
    // The directory went away or cannot be listed: nothing to sweep.
  }
}
