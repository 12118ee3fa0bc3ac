import { closeSync, constants, lstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PathSecurityError } from './errors.js';

const PROC_FD = '/proc/self/fd';
// The last component must not be a symlink; a FIFO must not block the open.
const VERIFIED_OPEN_FLAGS = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** `lstat` of `path`, or `undefined` when it cannot be read (gone, or never there). */
function lstatIfPresent(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Where the kernel says an open descriptor points; `undefined` where `/proc` is not mounted.
 * Like the `lstat` calls here, synchronous on purpose: it takes microseconds, a round trip
 * through libuv's thread pool many times that, and it runs on every open.
 */
function descriptorTarget(fd: number): string | undefined {
  try {
    return readlinkSync(`${PROC_FD}/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * The error to throw for a failed open of the approved `realPath`: a security error when a link
 * is to blame. The approved path had no symlink in it, so a link anywhere in it now was planted
 * after the check (`O_NOFOLLOW` refuses a final link with `ELOOP`, or `ENOTDIR` for a directory).
 */
function openFailure(error: unknown, realPath: string): unknown {
  for (let path = realPath; path !== dirname(path); path = dirname(path)) {
    if (!lstatIfPresent(path)?.isSymbolicLink()) continue;
    const what = path === realPath ? 'it' : 'a parent directory';
    return new PathSecurityError({ path: realPath, reason: `${what} became a symbolic link after it was checked`, cause: error });
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ELOOP' || code === 'EMLINK')
    return new PathSecurityError({ path: realPath, reason: 'it became a symbolic link after it was checked', cause: error });
  return error;
}

/** A security error when descriptor `fd` does not lead to `realPath` (close it and throw), `undefined` when it does. */
function changedTarget(fd: number, realPath: string): PathSecurityError | undefined {
  const target = descriptorTarget(fd);
  if (target === undefined || target === realPath) return undefined;
  return new PathSecurityError({ path: realPath, reason: `it changed after it was checked (it now leads to "${target}")` });
}

/**
 * Opens a path that {@link authorizePath} already approved, closing the window between the check
 * and the use: the last component is opened with `O_NOFOLLOW` (a file swapped for a symlink fails
 * to open), and the kernel's own record of what was opened (`/proc/self/fd/N`) must equal the
 * approved real path (a parent directory swapped for a symlink is caught). FIFOs never block the
 * open (`O_NONBLOCK`). Throws a `PathSecurityError` when the path changed after the check.
 * This is the use-side half of the sandbox check.
 */
export async function openVerified(realPath: string, flags: number = constants.O_RDONLY, mode?: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(realPath, flags | VERIFIED_OPEN_FLAGS, mode);
  } catch (error) {
    throw openFailure(error, realPath);
  }
  const changed = changedTarget(handle.fd, realPath);
  if (changed) {
    await handle.close();
    throw changed;
  }
  return handle;
}

/**
 * {@link openVerified} without libuv's thread pool: returns a file descriptor, which the caller
 * closes (`closeSync`). Opening a local file takes microseconds, far less than the two round
 * trips through the thread pool that opening and closing a `FileHandle` cost, which matters
 * when a tool call reads one small file. Same checks, same errors.
 */
export function openVerifiedSync(realPath: string, flags: number = constants.O_RDONLY, mode?: number): number {
  let fd: number;
  try {
    fd = openSync(realPath, flags | VERIFIED_OPEN_FLAGS, mode);
  } catch (error) {
    throw openFailure(error, realPath);
  }
  const changed = changedTarget(fd, realPath);
  if (changed) {
    closeSync(fd);
    throw changed;
  }
  return fd;
}

/**
 * An open, verified directory. Paths built with {@link VerifiedDirectory.entry} go through the
 * open handle (`/proc/self/fd/N/name`), so a later swap of the directory or of any of its
 * parents for a symlink cannot redirect what is created, renamed or written there.
 */
export interface VerifiedDirectory {
  /** The real path the directory was approved under. */
  readonly path: string;
  /** A path to `name` inside the directory that is pinned to the open handle. */
  entry(name: string): string;
  close(): Promise<void>;
}

/** The {@link VerifiedDirectory} of `realPath`, open as descriptor `fd`. */
function pinnedDirectory(realPath: string, fd: number, close: () => Promise<void>): VerifiedDirectory {
  const pinned = descriptorTarget(fd) === undefined ? realPath : `${PROC_FD}/${fd}`;
  return { path: realPath, entry: (name) => join(pinned, name), close };
}

/** Opens an approved directory with {@link openVerified} and pins later paths to the handle. */
export async function openVerifiedDirectory(realPath: string): Promise<VerifiedDirectory> {
  const handle = await openVerified(realPath, constants.O_RDONLY | constants.O_DIRECTORY);
  return pinnedDirectory(realPath, handle.fd, () => handle.close());
}

/** {@link openVerifiedDirectory} without libuv's thread pool (see {@link openVerifiedSync}). */
export function openVerifiedDirectorySync(realPath: string): VerifiedDirectory {
  const fd = openVerifiedSync(realPath, constants.O_RDONLY | constants.O_DIRECTORY);
  return pinnedDirectory(realPath, fd, async () => closeSync(fd));
}

/**
 * Refuses to replace `entry` (a path pinned to a verified directory) when it is a symlink: the
 * approved real path had no symlink in it, so one there now was planted after the check.
 */
export async function refusePlantedSymlink(entry: string, realPath: string): Promise<void> {
  if (lstatIfPresent(entry)?.isSymbolicLink()) {
    throw new PathSecurityError({ path: realPath, reason: 'it became a symbolic link after it was checked' });
  }
}

/** Runs `use` with an open {@link VerifiedDirectory}, closing it afterwards. */
export async function withVerifiedDirectory<T>(realPath: string, use: (directory: VerifiedDirectory) => Promise<T>): Promise<T> {
  const directory = await openVerifiedDirectory(realPath);
  try {
    return await use(directory);
  } finally {
    await directory.close();
  }
}
