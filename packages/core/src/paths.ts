import { lstatSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { NotFoundError, PathSecurityError } from './errors.js';

const MAX_SYMLINK_HOPS = 40;

function refuseNullByte(path: string): void {
  if (path.includes('\0')) throw new PathSecurityError({ path: path.replaceAll('\0', '\\0'), reason: 'the path contains a null byte' });
}

/** Expands `~`, converts backslashes and anchors a relative path at `cwd`, keeping `.` and `..` as written. */
function expandPath(path: string, cwd: string): string {
  if (typeof path !== 'string') throw new PathSecurityError({ path: String(path), reason: 'expected a string' });
  refuseNullByte(path);
  let result = path.replaceAll('\\', '/');
  if (result === '~' || result.startsWith('~/')) result = homedir() + result.slice(1);
  else if (result.startsWith('~')) throw new PathSecurityError({ path, reason: '"~user" paths are not supported; write the full path' });
  return isAbsolute(result) ? result : `${cwd}/${result}`;
}

/**
 * Turns a user- or LLM-supplied path into an absolute one, lexically: `~` and `~/…` expand to
 * the home directory, backslashes become slashes, and a relative path resolves against `cwd`.
 * Symlinks are not touched; {@link validatePath} does that.
 */
export function normalizePath(path: string, cwd: string = process.cwd()): string {
  return resolve(expandPath(path, cwd));
}

/** Whether `path` is `root` or lies below it, comparing whole path segments (`/a/b` is not within `/a/bc`). */
export function isWithin(path: string, root: string): boolean {
  if (path === root || root === '/') return true;
  return path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** A path in a process's or thread's `/proc` directory: that directory, and the path inside it. */
const PROCESS_DIRECTORY = /^(\/proc\/\d+(?:\/task\/\d+)?)(\/.+)$/;
/** The permission bit that lets users other than the owner read. */
const READABLE_BY_OTHERS = 0o004;

/**
 * Whether the real path `realPath` (symlinks resolved, so `/proc/self`, `/proc/thread-self` and
 * links to them already read `/proc/<pid>` and `/proc/<pid>/task/<tid>`) is, or lies inside, an
 * entry of a process's `/proc` directory that the kernel keeps from other users: its mode lets
 * no other user read it. That is where a process's secrets are — `environ` (the API keys and
 * tokens of its environment), `mem`, `auxv`, `pagemap`, `stack`, `syscall`, `io`,
 * `personality`, `mountstats`, the `fd/` and `map_files/` directories — and an entry a later
 * kernel adds is judged the same way, where a list of names would let it through. What any user
 * of the machine may read of a process (`status`, `cmdline`, `stat`) stays readable.
 *
 * It holds for every process, not only this one: the parent that started Nexus (a shell, an MCP
 * client) usually holds the same keys.
 */
export function isPrivateProcessEntry(realPath: string): boolean {
  const match = PROCESS_DIRECTORY.exec(realPath);
  if (!match) return false;
  let path = match[1] as string;
  for (const part of (match[2] as string).split('/').slice(1)) {
    path = `${path}/${part}`;
    let mode: number;
    try {
      mode = lstatSync(path).mode;
    } catch (error) {
      // Nothing there is nothing to keep; an entry we may not even look at is kept.
      return !isMissing(error);
    }
    if ((mode & READABLE_BY_OTHERS) === 0) return true;
  }
  return false;
}

/** What {@link walkRealPath} saw on its way. */
interface RealPathWalk {
  /** The real path ({@link resolveRealPath}). */
  real: string;
  /**
   * The part of `real` that exists (up to the first missing component): every component of it
   * was seen to be a directory or file, not a symlink, so it and each leading part of it are
   * their own real paths.
   */
  existing: string;
  /** `lstat` of `real`, when the walk ended on it and it exists and is not a symlink (then equal to its `stat`). */
  stats: Stats | undefined;
}

function walkRealPath(absolutePath: string): RealPathWalk {
  refuseNullByte(absolutePath);
  let pending = absolutePath.split('/');
  let resolved = '';
  let hops = 0;
  // Length of the existing prefix once a component is missing; a `..` back into it resumes resolving.
  let missingFrom: number | undefined;
  let stats: Stats | undefined;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '' || part === '.') continue;
    stats = undefined;
    if (part === '..') {
      resolved = resolved.slice(0, resolved.lastIndexOf('/'));
      if (missingFrom !== undefined && resolved.length <= missingFrom) missingFrom = undefined;
      continue;
    }
    const candidate = `${resolved}/${part}`;
    if (missingFrom !== undefined) {
      resolved = candidate;
      continue;
    }
    let found: Stats;
    try {
      found = lstatSync(candidate);
    } catch (error) {
      if (!isMissing(error)) throw error;
      missingFrom = resolved.length;
      resolved = candidate;
      continue;
    }
    if (!found.isSymbolicLink()) {
      resolved = candidate;
      stats = found;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) throw new PathSecurityError({ path: absolutePath, reason: 'too many levels of symbolic links' });
    let target: string;
    try {
      target = readlinkSync(candidate);
    } catch (error) {
      // The link changed between lstat and readlink: look at this component again.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && !isMissing(error)) throw error;
      pending.unshift(part);
      continue;
    }
    if (target.startsWith('/')) resolved = '';
    pending = [...target.split('/'), ...pending];
  }
  const existing = missingFrom === undefined ? resolved : resolved.slice(0, missingFrom);
  return { real: resolved || '/', existing: existing || '/', stats };
}

/**
 * Resolves every symlink in an absolute path the way the kernel would (a `..` after a symlink
 * climbs from the link's target), following links into components that do not exist yet, so a
 * dangling link resolves to where a write through it would land. Components past the first
 * missing one are taken literally.
 *
 * The system calls are synchronous on purpose: an `lstat` takes microseconds, a round trip
 * through libuv's thread pool many times that, and every tool call resolves several paths.
 */
export async function resolveRealPath(absolutePath: string): Promise<string> {
  return walkRealPath(absolutePath).real;
}

/** Case- and Unicode-insensitive form used to compare against blocked paths (refuse more, never less). */
function foldForBlocking(path: string): string {
  return path.normalize('NFKC').toLowerCase();
}

/** Whether the last component of `expanded` names an entry (not `.`, `..` or the root), which could itself be a link. */
function namesEntry(expanded: string): boolean {
  const last = basename(expanded);
  return last !== '.' && last !== '..' && resolve(expanded) !== '/';
}

/** Options of {@link validatePath}. */
export interface ValidatePathOptions {
  /** Directory relative paths resolve against (default: `process.cwd()`). */
  cwd?: string;
  /** Roots the path must resolve inside; `null` or absent means anywhere not blocked. */
  allowedPaths?: readonly string[] | null;
  /** Paths refused always, compared after resolving symlinks and ignoring case and Unicode form. */
  blockedPaths?: readonly string[];
  /** Refuse a path that does not exist (default `false`: write targets may be new). */
  mustExist?: boolean;
  /**
   * Follow a symlink in the last component (default `true`). With `false` the link itself is the
   * subject — for moving or removing a link, never for reading or writing through it.
   */
  followFinalLink?: boolean;
}

/**
 * The sandbox check every skill goes through. Returns the real absolute path to use from then
 * on (symlinks resolved), or throws a {@link PathSecurityError} when the path:
 * - contains a null byte or an unsupported `~user` form;
 * - resolves (after following every symlink, dangling ones included) outside `allowedPaths`;
 * - resolves inside a blocked path, however it is spelled or linked;
 * - resolves to what a process keeps from other users in `/proc` (its environment, its memory:
 *   {@link isPrivateProcessEntry}), at every level, like a blocked path;
 * - is a regular file with several hard links while a sandbox is in force (a hard link can
 *   alias a file outside the sandbox, and nothing in the path reveals it).
 * With `mustExist`, a missing path fails with a `not_found` error.
 */
export async function validatePath(path: string, options: ValidatePathOptions = {}): Promise<string> {
  const { cwd = process.cwd(), allowedPaths = null, blockedPaths = [], mustExist = false, followFinalLink = true } = options;
  const expanded = expandPath(path, cwd);
  const keepLink = !followFinalLink && namesEntry(expanded);
  // `..` is resolved physically, after the symlinks before it, as the kernel does.
  const walk = walkRealPath(keepLink ? dirname(expanded) : expanded);
  const real = keepLink ? `${walk.real.replace(/\/$/, '')}/${basename(expanded)}` : walk.real;

  if (isPrivateProcessEntry(real)) {
    throw new PathSecurityError({
      path,
      reason: "it is a process's /proc entry the kernel keeps from other users (its environment, its memory)",
    });
  }

  if (blockedPaths.length > 0) {
    const candidates = [foldForBlocking(resolve(expanded)), foldForBlocking(real)];
    for (const blocked of blockedPaths) {
      const blockedAbsolute = normalizePath(blocked, cwd);
      const roots = [foldForBlocking(blockedAbsolute), foldForBlocking(walkRealPath(blockedAbsolute).real)];
      if (candidates.some((candidate) => roots.some((root) => isWithin(candidate, root)))) {
        throw new PathSecurityError({ path, reason: `it is inside the blocked path "${blocked}"` });
      }
    }
  }

  if (allowedPaths !== null) {
    // A root the walk went through is its own real path: no second walk for it.
    const roots = allowedPaths.map((root) => {
      const absoluteRoot = normalizePath(root, cwd);
      return isWithin(walk.existing, absoluteRoot) ? absoluteRoot : walkRealPath(absoluteRoot).real;
    });
    if (!roots.some((root) => isWithin(real, root))) {
      const where =
        allowedPaths.length === 0 ? 'no paths are allowed' : `it resolves outside the allowed paths (${allowedPaths.join(', ')})`;
      throw new PathSecurityError({ path, reason: where });
    }
  }

  let stats: Stats;
  try {
    stats = keepLink ? lstatSync(real) : (walk.stats ?? statSync(real));
  } catch (error) {
    if (!isMissing(error)) throw error;
    if (mustExist) throw new NotFoundError(`No such file or directory: ${path}`);
    return real;
  }
  if (allowedPaths !== null && stats.isFile() && stats.nlink > 1) {
    throw new PathSecurityError({
      path,
      reason: `the file has ${stats.nlink} hard links, and a hard link can alias a file outside the sandbox`,
    });
  }
  return real;
}
