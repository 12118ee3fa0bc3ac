import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveCommandIsolation } from './command-isolation.js';

/**
 * Why bubblewrap cannot isolate commands here, as the tail of a test title (` — skipped: <reason>`),
 * or `''` where it can: `describe.skipIf(reason !== '')(`… inside bubblewrap${reason}`, …)`.
 */
export async function bubblewrapSkipReason(): Promise<string> {
  const probe = await resolveCommandIsolation({ sandbox: 'auto', network: true }, 'trusted');
  return probe.isolation === 'none' ? ` — skipped: ${probe.reason}` : '';
}

/**
 * Shell code that waits until `path` exists and succeeds only if it appeared — for tests that start
 * processes which must be ended before they get to act (`sh -c "${waitForFileScript(go)} && touch late"`).
 * It gives up after 10 s, so a failed test leaves nothing running for long.
 */
export function waitForFileScript(path: string): string {
  return `n=0; until [ -e ${path} ] || [ $n -ge 100 ]; do sleep 0.1; n=$((n+1)); done; [ -e ${path} ]`;
}

/** Whether a process is still running, read from `/proc` (Linux); a zombie waiting to be reaped counts as gone. */
export function isProcessAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZXx]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/**
 * Pids of the live processes (Linux `/proc`) one of whose arguments is exactly `argument` — for
 * tests that start a process with a unique argument (`sleep 600.4711`) and check it is gone.
 */
export function processesWithArgument(argument: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes(argument) && isProcessAlive(pid);
      } catch {
        return false;
      }
    });
}

/** What a sandbox attack test aims at: see {@link startSandboxTargets}. */
export interface SandboxTargets {
  /** A fresh secret in the environment of a host process, as the agent's own environment would hold. */
  readonly secret: string;
  /** The pid of that host process. */
  readonly hostPid: number;
  /** A directory outside `/tmp` (a bubblewrap sandbox leaves it in place, read-only). */
  readonly outside: string;
  /** Ends the host process and removes `outside`. */
  close(): void;
}

/** Starts a host process holding a fresh secret, and makes a directory outside `/tmp`, for attack tests of an OS sandbox. */
export async function startSandboxTargets(): Promise<SandboxTargets> {
  const secret = `planted-host-secret-${randomUUID()}`;
  const host: ChildProcess = spawn('sleep', ['600'], { env: { PATH: process.env.PATH, NEXUS_PLANTED_TOKEN: secret }, stdio: 'ignore' });
  await once(host, 'spawn');
  const outside = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : (process.env.HOME ?? '/'), 'nexus-sandbox-outside-'));
  return {
    secret,
    hostPid: host.pid as number,
    outside,
    close() {
      host.kill('SIGKILL');
      rmSync(outside, { recursive: true, force: true });
    },
  };
}
