import { join } from 'node:path';
import { readJsonState, updateJsonState } from './json-state-file.js';

/** File name of the usage records in the state directory. */
export const USAGE_FILE_NAME = 'skills-usage.json';

/** How often one command ran, and when last. */
export interface CommandUsage {
  count: number;
  /** ISO time of the last successful run. */
  last_used: string;
}

/** seed 003's usage record of one skill: its runs and each command's. */
export interface SkillUsage extends CommandUsage {
  commands: Record<string, CommandUsage>;
}

const bump = (usage: CommandUsage | undefined, now: string): CommandUsage => ({ count: (usage?.count ?? 0) + 1, last_used: now });

interface Run {
  skill: string;
  command: string;
  time: string;
}

/** Runs waiting to be written, by usage file, and the write that is draining them. */
const pending = new Map<string, { runs: Run[]; writing: Promise<void> }>();

function addRuns(state: Record<string, unknown>, runs: readonly Run[]): Record<string, unknown> {
  const next = { ...state };
  for (const { skill, command, time } of runs) {
    const previous = next[skill] as SkillUsage | undefined;
    next[skill] = { ...bump(previous, time), commands: { ...previous?.commands, [command]: bump(previous?.commands?.[command], time) } };
  }
  return next;
}

async function drain(file: string): Promise<void> {
  for (let queue = pending.get(file); queue && queue.runs.length > 0; queue = pending.get(file)) {
    const runs = queue.runs.splice(0);
    await updateJsonState(file, (state) => addRuns(state, runs));
  }
  pending.delete(file);
}

/**
 * Records one successful run of `skill`'s `command` in `<stateDirectory>/skills-usage.json`. Runs
 * that finish while a write is under way are added by the next write, in one locked, atomic
 * update, so a burst of runs costs a few writes and no count is lost (also across processes).
 * Resolves once the run is written.
 */
export function recordSkillUsage(stateDirectory: string, skill: string, command: string, now = new Date()): Promise<void> {
  const file = join(stateDirectory, USAGE_FILE_NAME);
  const run = { skill, command, time: now.toISOString() };
  const queue = pending.get(file);
  if (queue) {
    queue.runs.push(run);
    return queue.writing;
  }
  const fresh = { runs: [run], writing: Promise.resolve() };
  pending.set(file, fresh);
  fresh.writing = drain(file);
  return fresh.writing;
}

/** The usage records, by skill name. */
export async function readSkillUsage(stateDirectory: string): Promise<Record<string, SkillUsage>> {
  return (await readJsonState(join(stateDirectory, USAGE_FILE_NAME))) as Record<string, SkillUsage>;
}

/** Resolves once every run recorded so far is written (runs are recorded in the background; a short-lived program waits for this before it exits). */
export async function flushSkillUsage(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending.values()].map((queue) => queue.writing.catch(() => undefined)));
}
