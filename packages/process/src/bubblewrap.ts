import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isWithin, NexusError } from '@nexus/core';

/**
 * How {@link runProcess} isolates a command with bubblewrap: a new PID namespace (no host process
 * visible; everything the command starts ends with it), the file system read-only except the write
 * paths, a private `/tmp`, blocked paths hidden, and the network shared or cut off.
 */
export interface SandboxOptions {
  /**
   * Absolute paths the command may write (bound read-write); everything else stays read-only.
   * Default: the working directory. `null` leaves the whole file system writable (the other
   * protections stay).
   */
  writePaths?: readonly string[] | null;
  /**
   * Absolute paths the command may read besides the read-only root: bound read-only, so that one
   * under `/tmp` is visible past the private `/tmp` (a skill package's folder, say). A write path
   * holding one keeps it writable (and with `writePaths: null` they are writable, as the root is);
   * a blocked path inside one stays hidden.
   */
  readPaths?: readonly string[];
  /** Absolute paths hidden from the command: an empty read-only directory over a directory, an unreadable file over a file. */
  blockedPaths?: readonly string[];
  /** Whether the command may use the network (default `true`); `false` gives it a network of its own with only loopback. */
  network?: boolean;
}

/** A sandbox with every option filled in. */
export interface NormalizedSandbox {
  writePaths: readonly string[] | null;
  readPaths: readonly string[];
  blockedPaths: readonly string[];
  network: boolean;
}

/** Whether bubblewrap can sandbox commands here: its path, or why not. */
type BubblewrapCheck = { available: true; path: string } | { available: false; reason: string };

const NOT_INSTALLED = 'bubblewrap (bwrap) is not installed (not found on PATH; the Debian and Ubuntu package is "bubblewrap")';
const PROBE_TIMEOUT_MS = 10_000;
/** How bubblewrap reports that the command itself could not be started inside the sandbox. */
const EXEC_FAILURE = /^bwrap: execvp (.*): (No such file or directory|Permission denied)\n?$/;

const checks = new Map<string, Promise<BubblewrapCheck>>();

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The real paths of those of `paths` that exist. */
function existingRealPaths(paths: readonly string[]): string[] {
  return paths.map(realPathOf).filter((path): path is string => path !== undefined);
}

/**
 * The bubblewrap arguments that set up the sandbox for a command run in `cwd` (to be followed by
 * `--`, the program and its arguments). Later mounts cover earlier ones, so the order is: the
 * root read-only (or writable), fresh `/dev`, `/proc` and `/tmp`, the read paths, the write paths,
 * the working directory when no write path holds it, then the blocked paths over all of them.
 */
function bubblewrapArguments(cwd: string, sandbox: NormalizedSandbox): string[] {
  const args = ['--new-session', '--die-with-parent', '--unshare-pid'];
  if (!sandbox.network) args.push('--unshare-net');
  const everywhere = sandbox.writePaths === null;
  const asRoot = everywhere ? '--bind' : '--ro-bind';
  args.push(asRoot, '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const path of existingRealPaths(sandbox.readPaths)) args.push(asRoot, path, path);
  const writable = existingRealPaths(sandbox.writePaths ?? []);
  for (const path of writable) args.push('--bind', path, path);
  // The private /tmp would hide a working directory under /tmp that no write path brings back.
  const directory = realPathOf(cwd) ?? cwd;
  if (!writable.some((root) => isWithin(directory, root))) args.push(asRoot, directory, directory);
  for (const blocked of sandbox.blockedPaths) {
    const path = realPathOf(blocked);
    const stats = path === undefined ? undefined : statSync(path, { throwIfNoEntry: false });
    if (path === undefined || stats === undefined) continue;
    if (stats.isDirectory()) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--chdir', directory);
  return args;
}

/** Where `bwrap` is on `searchPath` (a PATH value), or `undefined`. */
function locateBubblewrap(searchPath: string | undefined): string | undefined {
  for (const directory of (searchPath ?? '').split(delimiter)) {
    if (directory.startsWith('/') && isExecutableFile(join(directory, 'bwrap'))) return join(directory, 'bwrap');
  }
  return undefined;
}

function probe(path: string, network: boolean): Promise<BubblewrapCheck> {
  const args = [...bubblewrapArguments('/', { writePaths: [], readPaths: [], blockedPaths: [], network }), '--', 'true'];
  return new Promise((resolve) => {
    execFile(path, args, { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (!error) return resolve({ available: true, path });
      const detail = stderr.trim().split('\n')[0] || error.message;
      resolve({ available: false, reason: `bubblewrap (${path}) cannot create its sandbox here: ${detail}` });
    });
  });
}

/**
 * Whether bubblewrap can sandbox a command, found on `searchPath` and tried once (per path and
 * network setting, for the life of the process) with the arguments a real run uses.
 */
export function checkBubblewrap(searchPath: string | undefined, network: boolean): Promise<BubblewrapCheck> {
  if (process.platform !== 'linux') return Promise.resolve({ available: false, reason: 'bubblewrap runs on Linux only' });
  const path = locateBubblewrap(searchPath);
  if (path === undefined) return Promise.resolve({ available: false, reason: NOT_INSTALLED });
  const key = `${path}\0${network}`;
  let check = checks.get(key);
  if (!check) {
    check = probe(path, network);
    checks.set(key, check);
  }
  return check;
}

/**
 * The program and arguments that run `file` inside the sandbox, with bubblewrap found on
 * `searchPath`; a `NexusError` with code `SANDBOX_UNAVAILABLE` saying why when it cannot run.
 */
export async function bubblewrapCommand(
  file: string,
  args: readonly string[],
  options: { cwd: string; sandbox: NormalizedSandbox; searchPath: string | undefined },
): Promise<[string, string[]]> {
  const { cwd, sandbox, searchPath } = options;
  const check = await checkBubblewrap(searchPath, sandbox.network);
  if (!check.available) throw new NexusError(`Cannot run "${file}" inside bubblewrap: ${check.reason}.`, { code: 'SANDBOX_UNAVAILABLE' });
  return [check.path, [...bubblewrapArguments(cwd, sandbox), '--', file, ...args]];
}

/**
 * The start failure bubblewrap reported for `file` (`ENOENT` or `EACCES`, like a spawn error) in a
 * run that exited with status 1, or `undefined` when the command did start. Only a run that printed
 * nothing else counts.
 */
export function bubblewrapStartFailure(file: string, stdout: string, stderr: string): string | undefined {
  if (stdout !== '') return undefined;
  const match = EXEC_FAILURE.exec(stderr);
  if (match?.[1] !== file) return undefined;
  return match[2] === 'Permission denied' ? 'EACCES' : 'ENOENT';
}
