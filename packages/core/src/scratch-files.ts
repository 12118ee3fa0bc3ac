import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename } from 'node:path';

/**
 * The scratch files of writes — a temporary file beside the file that becomes its new content, a
 * lock file while the file is edited (in the state directory; older versions kept it beside the
 * file) — and how to tell whether one was left behind by a writer that is gone (killed, crashed),
 * so that the next write in the directory removes it.
 */

/** Temporary files of atomic writes: `.<name>.nexus-tmp-<pid>-<random>`. */
const TEMPORARY_NAME = /\.nexus-tmp-(\d+)-[0-9a-f]{12}$/;
/** Lock files of edits: `.<name>.nexus-lock`. */
const LOCK_SUFFIX = '.nexus-lock';
/** A temporary file left this long without a write is stale, whoever owns it. */
const STALE_TEMPORARY_MS = 10 * 60_000;

/** This process as the owner of scratch files: its pid, its host, and this copy of `@nexus/core`. */
export const OWNER = { pid: process.pid, host: hostname(), instance: randomBytes(6).toString('hex') } as const;

/** The name of a new temporary file for writing `target`, in the same directory. */
export function temporaryName(target: string): string {
  return `.${basename(target)}.nexus-tmp-${OWNER.pid}-${randomBytes(6).toString('hex')}`;
}

/** The name of the lock file for `key` (a digest of the locked path). */
export function lockName(key: string): string {
  return `.${key}${LOCK_SUFFIX}`;
}

/** Whether `name` is a lock file's name. */
export function isLockName(name: string): boolean {
  return name.startsWith('.') && name.endsWith(LOCK_SUFFIX);
}

/** Whether process `pid` runs on this host (one of another user counts). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `name` is a temporary file of an atomic write nobody will finish: its writer is no
 * longer running, or it has not been written to for ten minutes. Our own process's are never
 * taken for abandoned while fresh (a write may be in progress).
 */
export function isStaleTemporary(name: string, modifiedMs: number, now: number = Date.now()): boolean {
  const match = TEMPORARY_NAME.exec(name);
  if (!match) return false;
  if (now - modifiedMs > STALE_TEMPORARY_MS) return true;
  const pid = Number(match[1]);
  return pid !== OWNER.pid && !isProcessRunning(pid);
}
