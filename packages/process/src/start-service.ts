import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { getSafeEnv } from '@nexus/core';

/** Default of {@link ServiceOptions.killGraceMs}. */
export const DEFAULT_SERVICE_KILL_GRACE_MS = 2000;

/** Options of {@link startService}. */
export interface ServiceOptions {
  /** Variables added to the sanitised environment (`getSafeEnv()`); nothing else is inherited. */
  env?: Record<string, string>;
  /** Working directory (default: the host's). */
  cwd?: string;
  /** How long `stop()` waits after SIGTERM before SIGKILL (default 2 s). */
  killGraceMs?: number;
}

/** A program running as a long-lived service of the host (an MCP server, a language server). */
export interface Service {
  /** Its process id. */
  readonly pid: number;
  /** Its standard input. */
  readonly stdin: Writable;
  /** Its standard output (standard error is discarded). */
  readonly stdout: Readable;
  /** Settles when the process has exited and its pipes closed. */
  readonly closed: Promise<void>;
  /** Ends its whole process group: SIGTERM, then SIGKILL after the grace period. */
  stop(): Promise<void>;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Starts `file` with `args` as a long-lived service — the runner's counterpart for programs that
 * talk over pipes instead of running to completion: no shell, the sanitised environment plus
 * `env`, its own process group, so `stop()` also ends the grandchildren it started (`npx` →
 * `node`, a browser), and the whole group is killed when the host exits. Rejects when the program
 * cannot start.
 */
export async function startService(file: string, args: readonly string[], options: ServiceOptions = {}): Promise<Service> {
  const { env = {}, cwd, killGraceMs = DEFAULT_SERVICE_KILL_GRACE_MS } = options;
  const child: ChildProcessByStdio<Writable, Readable, null> = spawn(file, args, {
    env: { ...getSafeEnv(), ...env },
    cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  await Promise.race([
    once(child, 'spawn'),
    once(child, 'error').then(([error]) => {
      throw error;
    }),
  ]);
  const pid = child.pid as number;
  const endWithHost = () => killGroup(pid, 'SIGKILL');
  process.on('exit', endWithHost);
  const closed = once(child, 'close').then(() => {
    process.off('exit', endWithHost);
  });
  return {
    pid,
    stdin: child.stdin,
    stdout: child.stdout,
    closed,
    async stop() {
      child.stdin.end();
      killGroup(pid, 'SIGTERM');
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, killGraceMs).unref())]);
      // Whatever of the group ignored SIGTERM (the leader or a grandchild) ends now.
      killGroup(pid, 'SIGKILL');
    },
  };
}
