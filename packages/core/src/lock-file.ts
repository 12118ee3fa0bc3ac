import { closeSync, constants, fstatSync, lstatSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { link, lstat, open, rename, unlink } from 'node:fs/promises';
import { isProcessRunning, OWNER, temporaryName } from './scratch-files.js';
import type { VerifiedDirectory } from './verified-open.js';

/**
 * One lock file: an exclusively created file naming its holder (pid, host, this copy of
 * `@nexus/core`), how to take and release it, and how to tell that its holder is gone.
 */

/** A lock file not refreshed for this long is stale, whoever holds it. */
const STALE_LOCK_MS = 30_000;
/** Longest content a lock file of ours has (pid, host name, instance id). */
const MAX_LOCK_BYTES = 512;

const OWN_CONTENT = `${OWNER.pid} ${OWNER.host} ${OWNER.instance}\n`;

/** Names of the lock files this copy of `@nexus/core` holds. */
const heldLockFiles = new Set<string>();

/** The `code` of a system call's error. */
export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

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

/**
 * Whether the lock file `name` holding `content`, last refreshed at `modifiedMs`, is abandoned:
 * its holder stopped refreshing it, is a process of this host that no longer runs, or is this
 * very copy of `@nexus/core` without holding it (left over from an earlier life of this pid).
 */
function isStaleLock(content: string, modifiedMs: number, name: string): boolean {
  if (Date.now() - modifiedMs > STALE_LOCK_MS) return true;
  const [pid, host, instance] = content.trim().split(' ');
  if (host !== OWNER.host || pid === undefined || !/^\d+$/.test(pid)) return false;
  if (Number(pid) !== OWNER.pid) return !isProcessRunning(Number(pid));
  return instance === OWNER.instance && !heldLockFiles.has(name);
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
export async function removeStaleLockFile(directory: VerifiedDirectory, name: string): Promise<boolean> {
  const entry = directory.entry(name);
  try {
    const [stats, content] = await Promise.all([lstat(entry), readLockContent(entry)]);
    // Anything else at a lock file's name (a link, a pipe, a big file) is no lock of ours: it goes.
    if (content !== undefined && !isStaleLock(content, stats.mtimeMs, name)) return false;
    await removeLockFile(directory, name, content);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return true;
    throw error;
  }
}

/**
 * Creates the lock file `name` in `directory`, naming this process as its holder; its descriptor.
 * Throws `EEXIST` while another holder has it. Synchronous: it takes microseconds, far less than
 * a round trip through libuv's thread pool, and every edit pays it.
 */
export function createLockFile(directory: VerifiedDirectory, name: string): number {
  const entry = directory.entry(name);
  const fd = openSync(entry, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, OWN_CONTENT);
  } catch (error) {
    closeSync(fd);
    unlinkSync(entry);
    throw error;
  }
  heldLockFiles.add(name);
  return fd;
}

/** Removes the lock file `name` that {@link createLockFile} made as `fd`, unless it was taken over meanwhile, and closes it. */
export function releaseLockFile(directory: VerifiedDirectory, name: string, fd: number): void {
  const entry = directory.entry(name);
  try {
    const ours = fstatSync(fd);
    const there = lstatSync(entry, { throwIfNoEntry: false });
    if (there && there.ino === ours.ino && there.dev === ours.dev) unlinkSync(entry);
  } catch {
    // The directory went away: nothing left to remove.
  } finally {
    closeSync(fd);
    heldLockFiles.delete(name);
  }
}
