import { closeSync, constants, fstatSync, futimes, lstatSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { link, lstat, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CancelledError } from './errors.js';
import { isProcessRunning, lockName, OWNER, temporaryName } from './scratch-files.js';
import { openVerifiedDirectory, type VerifiedDirectory } from './verified-open.js';

/** Options of {@link withFileLocks}. */
export interface FileLockOptions {
  /** Stops waiting for a lock (a `CancelledError`). */
  signal?: AbortSignal | undefined;
}

/** How often a held lock file's mtime is refreshed, so that a waiter can tell a live holder from a hung one. */
const HEARTBEAT_MS = 5_000;
/** A lock file not refreshed for this long is stale, whoever holds it. */
const STALE_LOCK_MS = 30_000;
/** Longest pause between two tries to take a lock file another process holds. */
const MAX_POLL_MS = 100;
/** Errors that say lock files cannot be made in a directory: locking falls back to this process alone. */
const NO_LOCK_FILES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR']);

/** The tail of each path's queue of holders in this process. */
const queues = new Map<string, Promise<void>>();
/** Real paths whose lock file this copy of `@nexus/core` holds. */
const heldLockFiles = new Set<string>();

const OWN_CONTENT = `${OWNER.pid} ${OWNER.host} ${OWNER.instance}\n`;

/** Longest content a lock file of ours has (pid, host name, instance id). */
const MAX_LOCK_BYTES = 512;

/**
 * The content of the lock file `entry`, or `undefined` when it is not one of ours: not a small
 * regular file. Opened without following a symlink and without blocking on a FIFO, so a name
 * planted by a hostile repository (a link to `/dev/zero`, a pipe) can neither hang nor flood us.
 */
async function readLockContent(entry: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(entry, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw error;
    return undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_LOCK_BYTES) return undefined;
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_LOCK_BYTES, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

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

/**
 * Whether the lock file holding `content`, last refreshed at `modifiedMs`, is abandoned: its
 * holder stopped refreshing it, is a process of this host that no longer runs, or is this very
 * copy of `@nexus/core` without holding it (left over from an earlier life of this pid).
 */
function isStaleLock(content: string, modifiedMs: number, lockedPath: string): boolean {
  if (Date.now() - modifiedMs > STALE_LOCK_MS) return true;
  const [pid, host, instance] = content.trim().split(' ');
  if (host !== OWNER.host || pid === undefined || !/^\d+$/.test(pid)) return false;
  if (Number(pid) !== OWNER.pid) return !isProcessRunning(Number(pid));
  return instance === OWNER.instance && !heldLockFiles.has(lockedPath);
}

/**
 * Removes the lock file `name` of `directory` if it still holds `expected`. It is first renamed
 * aside, so two processes removing the same stale lock cannot remove a new one taken meanwhile;
 * one that turns out not to be `expected` is put back.
 */
async function removeLockFile(directory: VerifiedDirectory, name: string, expected: string | undefined): Promise<void> {
  const aside = directory.entry(temporaryName(name));
  try {
    await rename(directory.entry(name), aside);
  } catch {
    return;
  }
  const actual = await readLockContent(aside).catch(() => undefined);
  if (actual !== expected) await link(aside, directory.entry(name)).catch(() => {});
  await unlink(aside).catch(() => {});
}

/**
 * Removes the lock file `name` of `directory` when it is stale (see {@link isStaleLock}); `true`
 * when it is gone (removed, or already released).
 */
export async function removeStaleLockFile(directory: VerifiedDirectory, name: string, lockedPath: string): Promise<boolean> {
  const entry = directory.entry(name);
  try {
    const [stats, content] = await Promise.all([lstat(entry), readLockContent(entry)]);
    // Anything else at a lock file's name (a link, a pipe, a big file) is no lock of ours: it goes.
    if (content !== undefined && !isStaleLock(content, stats.mtimeMs, lockedPath)) return false;
    await removeLockFile(directory, name, content);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return true;
    throw error;
  }
}

/** Creates the lock file `entry` holding {@link OWN_CONTENT}; its descriptor. */
function createLockFile(entry: string): number {
  const fd = openSync(entry, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o644);
  try {
    writeSync(fd, OWN_CONTENT);
    return fd;
  } catch (error) {
    closeSync(fd);
    unlinkSync(entry);
    throw error;
  }
}

/**
 * Takes the lock file of `path` (waiting while another live process holds it); returns the
 * release. Creating, refreshing and removing it are synchronous: each takes microseconds, far
 * less than a round trip through libuv's thread pool, and every edit pays them.
 */
async function lockAcrossProcesses(path: string, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  let directory: VerifiedDirectory;
  try {
    directory = await openVerifiedDirectory(dirname(path));
  } catch (error) {
    if (NO_LOCK_FILES.has(errnoCode(error) ?? '')) return async () => {};
    throw error;
  }
  const name = lockName(path);
  const entry = directory.entry(name);
  let fd: number | undefined;
  try {
    for (let attempt = 0; fd === undefined; attempt++) {
      try {
        fd = createLockFile(entry);
      } catch (error) {
        const code = errnoCode(error);
        if (NO_LOCK_FILES.has(code ?? '')) {
          await directory.close();
          return async () => {};
        }
        if (code !== 'EEXIST') throw error;
        if (!(await removeStaleLockFile(directory, name, path))) await pause(Math.min(2 ** attempt, MAX_POLL_MS), signal);
      }
    }
  } catch (error) {
    await directory.close();
    throw error;
  }
  const held = fd;
  heldLockFiles.add(path);
  const heartbeat = setInterval(() => {
    const now = new Date();
    futimes(held, now, now, () => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return async () => {
    clearInterval(heartbeat);
    try {
      // Still ours (not taken over as stale and replaced meanwhile): remove it.
      const ours = fstatSync(held);
      const there = lstatSync(entry, { throwIfNoEntry: false });
      if (there && there.ino === ours.ino && there.dev === ours.dev) unlinkSync(entry);
    } catch {
      // The directory went away: nothing left to remove.
    } finally {
      closeSync(held);
      heldLockFiles.delete(path);
      await directory.close().catch(() => {});
    }
  };
}

/**
 * Runs `use` holding the edit lock of every real path in `paths`, so that read-modify-writes of a
 * file never overlap: within this process the holders of a path queue up in order; across
 * processes a lock file `.<name>.nexus-lock` beside the file, created exclusively, holds the
 * others off. A lock file whose holder is gone (not running, or not refreshing it for 30 s) is
 * removed; where no lock file can be made (a read-only directory) the lock covers this process
 * only. Paths are taken in sorted order, so two callers locking the same files cannot deadlock.
 * Writers that take no lock (editors, other programs) are not held off: pair the lock with a
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
