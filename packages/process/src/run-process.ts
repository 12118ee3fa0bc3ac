import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { expectOption, getSafeEnv, isPositiveNumber, NexusError, NotFoundError } from '@nexus/core';
import { bubblewrapCommand, bubblewrapStartFailure, type NormalizedSandbox, type SandboxOptions } from './bubblewrap.js';
import { CappedOutput } from './capped-output.js';
import { ProcessTracker } from './process-tracker.js';

/** Default time limit of {@link runProcess}, in ms. */
export const DEFAULT_RUN_TIMEOUT_MS = 30_000;
/** Default cap of each output stream, in bytes. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Default time between SIGTERM and SIGKILL, in ms. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** How long output may keep arriving after the processes are gone (pipes held by something that escaped). */
const STREAM_DRAIN_MS = 1_000;

/** Options of {@link runProcess}. */
export interface RunOptions {
  /** Absolute working directory, already validated by the caller (see `resolveWorkingDirectory`). */
  cwd: string;
  /** Time limit in ms (default 30 000); then every process of the run is ended. */
  timeoutMs?: number;
  /** Cancellation: ends every process of the run. */
  signal?: AbortSignal;
  /** Variables set on top of core's `getSafeEnv()`; secret-looking names are refused all the same. */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. Without it stdin is empty. */
  input?: string | Uint8Array;
  /** Cap of each of stdout and stderr in bytes (default 1 MiB); past it output is dropped and a marker added. */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL when ending the run, in ms (default 2 000). */
  killGraceMs?: number;
  /**
   * Run the command inside bubblewrap (Linux): see {@link SandboxOptions}. Where bubblewrap is
   * missing or cannot create its sandbox, the run is refused (`SANDBOX_UNAVAILABLE`). Without it
   * the command runs unisolated.
   */
  sandbox?: SandboxOptions;
}

/** What a finished run produced. */
export interface RunResult {
  /** Standard output (UTF-8), capped, with a truncation marker when bytes were dropped. */
  stdout: string;
  /** Standard error (UTF-8), capped likewise. */
  stderr: string;
  /** Exit code, or `null` when the process was ended by a signal. */
  exitCode: number | null;
  /** Signal that ended the process (`SIGTERM`, `SIGKILL` …), or `null`. */
  signal: string | null;
  /** The time limit passed and the run was ended. */
  timedOut: boolean;
  /** The `signal` aborted and the run was ended. */
  cancelled: boolean;
  /** Output was dropped from stdout or stderr. */
  truncated: boolean;
  /** Wall-clock time from start to result, in ms. */
  durationMs: number;
  /** The command ran inside a bubblewrap sandbox. */
  sandboxed: boolean;
}

type NormalizedRunOptions = Required<Omit<RunOptions, 'signal' | 'input' | 'sandbox'>> &
  Pick<RunOptions, 'signal' | 'input'> & { sandbox: NormalizedSandbox | undefined };

const isAbsolutePathList = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((path) => typeof path === 'string' && path.startsWith('/'));

function normalizeSandbox(sandbox: SandboxOptions | undefined, cwd: string): NormalizedSandbox | undefined {
  if (sandbox === undefined) return undefined;
  expectOption(typeof sandbox === 'object' && sandbox !== null && !Array.isArray(sandbox), 'sandbox', 'an object', sandbox);
  const { writePaths = [cwd], readPaths = [], blockedPaths = [], network = true } = sandbox;
  expectOption(
    writePaths === null || isAbsolutePathList(writePaths),
    'sandbox.writePaths',
    'an array of absolute paths or null',
    writePaths,
  );
  expectOption(isAbsolutePathList(readPaths), 'sandbox.readPaths', 'an array of absolute paths', readPaths);
  expectOption(isAbsolutePathList(blockedPaths), 'sandbox.blockedPaths', 'an array of absolute paths', blockedPaths);
  expectOption(typeof network === 'boolean', 'sandbox.network', 'a boolean', network);
  return { writePaths, readPaths, blockedPaths, network };
}

/** Validates the options and fills in the defaults; the one place that knows them. */
function normalizeRunOptions(options: RunOptions): NormalizedRunOptions {
  const {
    cwd,
    signal,
    env = {},
    input,
    timeoutMs = DEFAULT_RUN_TIMEOUT_MS,
    maxOutputBytes = DEFAULT_MAX_OUTPUT_BYTES,
    killGraceMs = DEFAULT_KILL_GRACE_MS,
    sandbox,
  } = options ?? ({} as RunOptions);
  expectOption(typeof cwd === 'string' && cwd.startsWith('/'), 'cwd', 'an absolute path', cwd);
  expectOption(isPositiveNumber(timeoutMs), 'timeoutMs', 'a positive number', timeoutMs);
  expectOption(isPositiveNumber(maxOutputBytes), 'maxOutputBytes', 'a positive number', maxOutputBytes);
  expectOption(isPositiveNumber(killGraceMs), 'killGraceMs', 'a positive number', killGraceMs);
  return { cwd, signal, env, input, timeoutMs, maxOutputBytes, killGraceMs, sandbox: normalizeSandbox(sandbox, cwd) };
}

// execa takes a noticeable time to load; families import this package at start-up but may never
// run a command, so it is loaded on the first run instead of at import.
let execaModule: Promise<typeof import('execa')> | undefined;
const loadExeca = () => (execaModule ??= import('execa'));

const activeRuns = new Set<ProcessTracker>();
let exitHookInstalled = false;

/** Makes sure runs still going when the host process exits do not outlive it. */
function trackRun(tracker: ProcessTracker): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const run of activeRuns) run.killNow();
    });
  }
  activeRuns.add(tracker);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function startError(file: string, cwd: string, error: { code?: string; message?: string; cause?: unknown }): NexusError {
  if (error.code === 'ENOENT' && !isDirectory(cwd))
    return new NotFoundError(`The working directory "${cwd}" does not exist.`, { cause: error });
  if (error.code === 'ENOENT')
    return new NotFoundError(`Program "${file}" was not found (is it installed and on PATH?).`, { cause: error });
  if (error.code === 'EACCES') return new NexusError(`Program "${file}" could not be started: permission denied.`, { cause: error });
  return new NexusError(`Program "${file}" could not be started: ${error.code ?? error.message ?? 'unknown error'}.`, { cause: error });
}

/** Inside the sandbox temporary files go to its private /tmp; a TMPDIR elsewhere would be read-only. */
const PRIVATE_TMP = { TMPDIR: '/tmp' };

async function drain(streams: readonly (Readable | null)[]): Promise<void> {
  const open = streams.filter((stream): stream is Readable => stream !== null);
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, STREAM_DRAIN_MS);
  });
  await Promise.race([Promise.all(open.map((stream) => finished(stream).catch(() => undefined))), patience]);
  clearTimeout(timer);
  for (const stream of open) stream.destroy();
}

/**
 * Runs a program without a shell: sanitised environment (core's `getSafeEnv` plus `env`), its
 * own session and process group, stdout and stderr captured up to `maxOutputBytes` each with
 * memory bounded however much it prints. On timeout or cancellation every process of the run
 * — grandchildren, `setsid`/`nohup` children and processes that ignore SIGTERM included — is
 * ended (SIGTERM, then SIGKILL after `killGraceMs`); processes a finished command leaves behind
 * are ended the same way. With `sandbox`, the command runs inside bubblewrap (see
 * {@link SandboxOptions}), started with the same sanitised environment.
 *
 * Resolves for every exit code; rejects only when the program cannot be started (a missing
 * program is a `NotFoundError` naming it), a sandbox was asked for and bubblewrap cannot provide
 * it (a `NexusError` with code `SANDBOX_UNAVAILABLE`), or the options are invalid
 * (`InvalidOptionError` naming the option).
 */
export async function runProcess(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const { cwd, timeoutMs, signal, env, input, maxOutputBytes, killGraceMs, sandbox } = normalizeRunOptions(options);
  const started = performance.now();
  const stdout = new CappedOutput(maxOutputBytes);
  const stderr = new CappedOutput(maxOutputBytes);
  const result = (fields: Partial<RunResult>): RunResult => ({
    stdout: stdout.text(),
    stderr: stderr.text(),
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: false,
    truncated: stdout.truncated || stderr.truncated,
    durationMs: Math.round(performance.now() - started),
    sandboxed: sandbox !== undefined,
    ...fields,
  });
  if (signal?.aborted) return result({ cancelled: true });

  const childEnv = getSafeEnv({ set: { ...(sandbox ? PRIVATE_TMP : {}), ...env } });
  const [program, argv] = sandbox ? await bubblewrapCommand(file, args, { cwd, sandbox, searchPath: childEnv.PATH }) : [file, args];

  const { execa } = await loadExeca();
  const tracker = new ProcessTracker();
  const subprocess = execa(program, argv, {
    cwd,
    env: { ...childEnv, ...tracker.environment },
    extendEnv: false,
    detached: true,
    cleanup: false,
    buffer: false,
    reject: false,
    windowsHide: true,
    ...(input === undefined ? { stdin: 'ignore' as const } : { input }),
  });
  if (subprocess.pid === undefined) {
    const failure = await subprocess;
    throw startError(program, cwd, failure as { code?: string; message?: string });
  }
  // With `reject: false` the promise does not reject; it is not awaited (a pipe held by an
  // escaped process would keep it pending) — the exit event and the streams are.
  void subprocess.catch(() => undefined);
  tracker.attach(subprocess.pid);
  trackRun(tracker);
  subprocess.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  subprocess.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));

  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    subprocess.nodeChildProcess.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal }));
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'timeout' | 'cancel'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    onAbort = () => resolve('cancel');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const reason = await Promise.race([exited.then(() => 'exit' as const), stopped]);
    if (reason !== 'exit' || tracker.find(true).length > 0) await tracker.terminate(killGraceMs);
    const exit = await exited;
    await drain([subprocess.stdout, subprocess.stderr]);
    const failedStart = sandbox && exit.code === 1 ? bubblewrapStartFailure(file, stdout.text(), stderr.text()) : undefined;
    if (failedStart) throw startError(file, cwd, { code: failedStart });
    return result({ exitCode: exit.code, signal: exit.signal, timedOut: reason === 'timeout', cancelled: reason === 'cancel' });
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    activeRuns.delete(tracker);
  }
}
