import { createHash } from 'node:crypto';
import { futimes, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { CancelledError } from './errors.js';
import { createLockFile, errnoCode, releaseLockFile, removeStaleLockFile } from './lock-file.js';
import { lockName } from './scratch-files.js';
import { sweepScratchFiles } from './scratch-sweep.js';
import { nexusStateDir } from './state-dir.js';
import { openVerifiedDirectorySync, type VerifiedDirectory } from './verified-open.js';

/** Options of {@link withFileLocks}. */
export interface FileLockOptions {
  /** Stops waiting for a lock (a `CancelledError`). */
  signal?: AbortSignal | undefined;
}

/** How often a held lock file's mtime is refreshed, so that a waiter can tell a live holder from a hung one. */
const HEARTBEAT_MS = 5_000;
/** Longest pause between two tries to take a lock file another process holds. */
const MAX_POLL_MS = 100;
/** Errors that say lock files cannot be made: locking falls back to this process alone. */
const NO_LOCK_FILES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR']);

/** The tail of each path's queue of holders in this process. */
const queues = new Map<string, Promise<void>>();

function cancellable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const pause = (ms: number, signal: AbortSignal | undefined) => cancellable(new Promise<void>((resolve) => setTimeout(resolve, ms)), signal);

/** Waits for the holders of `path` in this process before us; returns the release. */
async function lockInProcess(path: string, signal: AbortSignal | undefined): Promise<() => void> {
  const previous = queues.get(path);
  const { promise: done, resolve: finish } = Promise.withResolvers<void>();
  const tail = previous ? previous.then(() => done) : done;
  queues.set(path, tail);
  const release = () => {
    finish();
    if (queues.get(path) === tail) queues.delete(path);
  };
  if (previous) {
    try {
      await cancellable(previous, signal);
    } catch (error) {
      void previous.then(release);
      throw error;
    }
  }
  return release;
}

/** The lock directory made so far, by the path of it that {@link nexusStateDir} gives, and its real path. */
let madeLockDirectory: { path: string; real: string } | undefined;

/**
 * The directory of the lock files, `<state dir>/locks` (made private on first use), opened; or
 * `undefined` where it cannot be made (a read-only home). Lock files live there, never beside
 * the files they lock: a writer that is killed leaves nothing in the user's tree. It is made and
 * resolved once, not on every lock, and again only when it cannot be opened (removed meanwhile).
 * Opened synchronously: it takes microseconds, and every edit pays it.
 */
function openLockDirectory(): VerifiedDirectory | undefined {
  const path = join(nexusStateDir(), 'locks');
  if (madeLockDirectory?.path === path) {
    try {
      return openVerifiedDirectorySync(madeLockDirectory.real);
    } catch {
      madeLockDirectory = undefined;
    }
  }
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    const real = realpathSync.native(path);
    const directory = openVerifiedDirectorySync(real);
    madeLockDirectory = { path, real };
    return directory;
  } catch (error) {
    if (NO_LOCK_FILES.has(errnoCode(error) ?? '')) return undefined;
    throw error;
  }
}

/** The name of the lock file of the real path `path`: `.<SHA-256 of the path>.nexus-lock`, the form the sweep knows. */
function lockFileName(path: string): string {
  return lockName(createHash('sha256').update(path).digest('hex'));
}

/**
 * Takes the lock file of `path` (waiting while another live process holds it, taking it over
 * from one that is gone); returns the release. Lock files that other holders which died left
 * for other paths are swept from the directory now and then.
 */
async function lockAcrossProcesses(path: string, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  const directory = openLockDirectory();
  if (!directory) return async () => {};
  const name = lockFileName(path);
  let fd: number | undefined;
  try {
    await sweepScratchFiles(directory);
    for (let attempt = 0; fd === undefined; attempt++) {
      try {
        fd = createLockFile(directory, name);
      } catch (error) {
        const code = errnoCode(error);
        if (NO_LOCK_FILES.has(code ?? '')) {
          await directory.close();
          return async () => {};
        }
        if (code !== 'EEXIST') throw error;
        if (!(await removeStaleLockFile(directory, name))) await pause(Math.min(2 ** attempt, MAX_POLL_MS), signal);
      }
    }
  } catch (error) {
    await directory.close();
    throw error;
  }
  const held = fd;
  const heartbeat = setInterval(() => {
    const now = new Date();
    futimes(held, now, now, () => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return async () => {
    clearInterval(heartbeat);
    releaseLockFile(directory, name, held);
    await directory.close().catch(() => {});
  };
}

/**
 * Runs `use` holding the edit lock of every real path in `paths`, so that read-modify-writes of a
 * file never overlap: within this process the holders of a path queue up in order; across
 * processes a lock file in Nexus's state directory (`<state dir>/locks/`, named by a digest of
 * the path), created exclusively, holds the others off — never a file in the user's tree, which a
 * killed writer would leave behind. A lock file whose holder is gone (not running, or not
 * refreshing it for 30 s) is taken over; where no lock file can be made (a read-only state
 * directory) the lock covers this process only. Paths are taken in sorted order, so two callers
 * locking the same files cannot deadlock. Writers that take no lock (editors, other programs, a
 * Nexus process with another state directory) are not held off: pair the lock with a
 * compare-and-swap write (`atomicWriteVerified`'s `checkTarget`).
 */
export async function withFileLocks<T>(paths: readonly string[], use: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const { signal } = options;
  const releases: (() => void | Promise<void>)[] = [];
  try {
    for (const path of [...new Set(paths)].sort()) {
      releases.push(await lockInProcess(path, signal));
      releases.push(await lockAcrossProcesses(path, signal));
    }
    return await use();
  } finally {
    for (const release of releases.reverse()) await release();
  }
}
