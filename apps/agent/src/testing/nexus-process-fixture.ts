// Helpers for tests that run the built `nexus` command as a real process. Not part of the app.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const appDir = fileURLToPath(new URL('../..', import.meta.url));
const rootDir = join(appDir, '..', '..');

/** The built command. */
export const CLI_PATH = join(appDir, 'dist', 'cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function oldestOutput(dir: string): number {
  try {
    return Math.min(...readdirSync(dir).map((name) => statSync(join(dir, name)).mtimeMs));
  } catch {
    return 0;
  }
}

/** Whether the app or a workspace package it uses changed since it was last built. */
function isStale(): boolean {
  const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const dirs = [
    appDir,
    ...Object.keys(manifest.dependencies)
      .filter((name) => name.startsWith('@nexus/'))
      .map((name) => join(rootDir, 'packages', name.slice('@nexus/'.length))),
  ];
  return dirs.some((dir) => newestSource(join(dir, 'src')) > oldestOutput(join(dir, 'dist')));
}

/**
 * Builds the app and its packages when the sources are newer than `dist/` (the repository's test
 * command builds first, so then this does nothing). Test files run in parallel, so the build
 * happens under a lock and only once.
 */
export async function ensureBuilt(): Promise<void> {
  if (!isStale()) return;
  const lock = join(tmpdir(), 'nexus-agent-test-build.lock');
  for (let waited = 0; ; waited += 250) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 180_000) rmdirSync(lock);
      await delay(250);
    }
  }
  try {
    // Through the pinned pnpm (turbo needs a package manager to read the workspace, and a machine
    // may have none installed).
    if (isStale())
      execFileSync(process.execPath, [join(rootDir, 'scripts', 'pnpm.mjs'), 'run', 'build', '--filter=@nexus/agent...'], {
        cwd: rootDir,
        stdio: 'ignore',
      });
  } catch (error) {
    // A package being edited may not build right now; the tests then run the last build, and say so.
    console.warn(`nexus tests run the last build of apps/agent: rebuilding failed (${(error as Error).message.split('\n')[0]}).`);
  } finally {
    rmdirSync(lock);
  }
}

/** Config-file settings that make the LLM stand-in at `url` the default model, `fast` (its key in `apiKeyEnv` when given). */
export function standInModelConfig(url: string, apiKeyEnv?: string) {
  return {
    providers: { local: { type: 'openai-compatible' as const, baseUrl: url, ...(apiKeyEnv === undefined ? {} : { apiKeyEnv }) } },
    models: { fast: { provider: 'local', id: 'test-model' } },
    defaultModel: 'fast',
  };
}

/** What a finished `nexus` process left. */
export interface NexusRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runNexus}. */
export interface RunOptions {
  cwd: string;
  /** Variables on top of a minimal environment (PATH, HOME). */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. */
  input?: string;
  /**
   * Kills the process (SIGKILL) if it has not exited after this many ms, and rejects: a guard that
   * fails a test of a command that must end, instead of hanging it.
   */
  exitWithinMs?: number;
}

/** The environment a test's `nexus` runs with: no user config unless the test writes one into `configHome`. */
export function nexusEnv(configHome: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? configHome, XDG_CONFIG_HOME: configHome, ...extra };
}

/** Runs `nexus <args>` to completion. */
export function runNexus(args: readonly string[], options: RunOptions): Promise<NexusRun> {
  const { cwd, env = {}, input = '', exitWithinMs } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'pipe',
      ...(exitWithinMs === undefined ? {} : { timeout: exitWithinMs, killSignal: 'SIGKILL' as const }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (child.killed) reject(new Error(`nexus ${args.join(' ')} did not exit within ${exitWithinMs} ms; it printed: ${stdout}${stderr}`));
      else resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** A `nexus` process serving on 127.0.0.1 and what it printed. */
export interface ServingNexus {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything printed to stdout so far. */
  stdout(): string;
  /** Everything printed to stderr so far. */
  stderr(): string;
  /** Settles with the exit status once the process has ended. */
  exited: Promise<number | null>;
  /** Sends `signal` (default SIGTERM) and waits for the exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `nexus <args>` and waits until it prints `URL: …` (and whatever else `ready` waits for). */
function startServingNexus(
  args: readonly string[],
  options: Omit<RunOptions, 'input'>,
  ready: (stdout: string) => boolean = () => true,
): Promise<ServingNexus> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    void exited.then((code) => reject(new Error(`nexus ${args.join(' ')} exited (${code}) before it was ready: ${stderr}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /^URL: +(\S+)$/m.exec(stdout)?.[1];
      if (!url || !ready(stdout)) return;
      resolve({
        url,
        port: Number(new URL(url).port),
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        exited,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    });
  });
}

/** A `nexus mcp --http` process and what it printed. */
export interface HttpNexus extends ServingNexus {
  token: string;
}

/** Starts `nexus mcp --http 0 <args>` and waits until it prints its URL and token. */
export async function startHttpNexus(args: readonly string[], options: Omit<RunOptions, 'input'>): Promise<HttpNexus> {
  const token = (stdout: string) => /^Token: +(.+)$/m.exec(stdout)?.[1];
  const nexus = await startServingNexus(['mcp', '--http', '0', ...args], options, (stdout) => token(stdout) !== undefined);
  return { ...nexus, token: token(nexus.stdout()) as string };
}

/** Starts `nexus serve --port 0 <args>` (the agent server) and waits until it prints its URL. */
export function startNexusServe(args: readonly string[], options: Omit<RunOptions, 'input'>): Promise<ServingNexus> {
  return startServingNexus(['serve', '--port', '0', ...args], options);
}

/** Starts `nexus mcp <args>` in `cwd`, with `configHome` as its config directory, and connects `client` to it over stdio. */
export async function connectToNexusMcp(
  client: Client,
  args: readonly string[],
  options: { cwd: string; configHome: string },
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'mcp', ...args],
    cwd: options.cwd,
    env: nexusEnv(options.configHome),
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** The text of a tool result's first content item. */
export function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { text: string }[])[0]?.text ?? '';
}
