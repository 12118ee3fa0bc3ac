import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** Environment variable every process of a run inherits; it finds descendants that left the process group. */
export const RUN_TAG_VARIABLE = 'NEXUS_RUN_ID';

const KILL_ROUNDS = 20;
const POLL_INTERVALS_MS = [5, 10, 20, 40, 80];
const POLL_INTERVAL_MAX_MS = 100;

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
}

function listPids(): number[] | undefined {
  try {
    return readdirSync('/proc')
      .filter((name) => name.charCodeAt(0) <= 57 && name.charCodeAt(0) >= 48)
      .map(Number);
  } catch {
    return undefined;
  }
}

/** Reads `/proc/<pid>/stat`; zombies and vanished processes count as gone. */
function readEntry(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'Z' || state === 'X' || state === 'x') return undefined;
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) };
}

function readEnviron(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return '';
  }
}

function sendSignal(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Keeps track of every process one run starts and ends them all. The root runs in its own
 * session and process group (it is spawned detached), so most descendants share its group.
 * Those that leave it — `setsid`, `nohup … &` from a shell with job control, double-forking
 * daemons reparented to init — are still found through `/proc`: a process counts as part of
 * the run when it is in the root's group or session, carries the run's tag variable in its
 * environment, or descends from such a process. Without `/proc` (macOS), only the group is
 * reached.
 */
export class ProcessTracker {
  /** Unique value of {@link RUN_TAG_VARIABLE} for this run. */
  readonly tag = randomUUID();
  readonly #baseline: ReadonlySet<number>;
  #rootPid: number | undefined;

  /** Takes a snapshot of existing processes; create it just before spawning. */
  constructor() {
    this.#baseline = new Set(listPids());
  }

  /** The variables to add to the child's environment. */
  get environment(): Record<string, string> {
    return { [RUN_TAG_VARIABLE]: this.tag };
  }

  /** Records the root process (also the process group id and session id). */
  attach(pid: number): void {
    this.#rootPid = pid;
  }

  /**
   * Live processes of the run. `newOnly` looks only at processes started after the tracker was
   * created — cheap enough to run after every command; the full scan also catches a pid reused
   * after the pid counter wrapped.
   */
  find(newOnly = false): number[] {
    const root = this.#rootPid;
    if (root === undefined) return [];
    const pids = listPids();
    if (pids === undefined) return sendSignal(-root, 0) ? [-root] : [];
    const tagEntry = `${RUN_TAG_VARIABLE}=${this.tag}\0`;
    const entries = (newOnly ? pids.filter((pid) => !this.#baseline.has(pid)) : pids)
      .filter((pid) => pid !== process.pid)
      .map(readEntry)
      .filter((entry): entry is ProcessEntry => entry !== undefined);
    const found = new Set<number>();
    const pending: number[] = [];
    for (const entry of entries) {
      if (entry.pgid === root || entry.sid === root || entry.pid === root || readEnviron(entry.pid).includes(tagEntry)) {
        found.add(entry.pid);
        pending.push(entry.pid);
      }
    }
    const children = Map.groupBy(entries, (entry) => entry.ppid);
    for (let parent = pending.pop(); parent !== undefined; parent = pending.pop()) {
      for (const { pid: child } of children.get(parent) ?? []) {
        if (!found.has(child)) {
          found.add(child);
          pending.push(child);
        }
      }
    }
    return [...found];
  }

  /** Sends `signal` to the root's process group and to each of `pids`. */
  #signal(pids: readonly number[], signal: NodeJS.Signals): void {
    if (this.#rootPid !== undefined) sendSignal(-this.#rootPid, signal);
    for (const pid of pids) sendSignal(pid, signal);
  }

  /**
   * Ends every process of the run: SIGTERM, up to `graceMs` for them to exit, then rounds of
   * SIGSTOP (so nothing can fork meanwhile) and SIGKILL until the scan comes back empty.
   */
  async terminate(graceMs: number): Promise<void> {
    let targets = this.find();
    if (targets.length === 0) return;
    this.#signal(targets, 'SIGTERM');
    const deadline = performance.now() + graceMs;
    for (let attempt = 0; performance.now() < deadline; attempt++) {
      const wait = Math.min(POLL_INTERVALS_MS[attempt] ?? POLL_INTERVAL_MAX_MS, deadline - performance.now());
      await delay(Math.max(wait, 1));
      targets = this.find();
      if (targets.length === 0) return;
    }
    for (let round = 0; round < KILL_ROUNDS; round++) {
      targets = this.find();
      if (targets.length === 0) return;
      this.#signal(targets, 'SIGSTOP');
      const all = [...new Set([...targets, ...this.find()])];
      this.#signal(all, 'SIGKILL');
      await delay(POLL_INTERVALS_MS[round] ?? POLL_INTERVAL_MAX_MS);
    }
  }

  /** SIGKILLs everything at once, synchronously (for the host process's `exit`). */
  killNow(): void {
    this.#signal(this.find(), 'SIGKILL');
  }
}
