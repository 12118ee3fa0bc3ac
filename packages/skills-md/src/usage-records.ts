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

/** Records one successful run of `skill`'s `command` in `<stateDirectory>/skills-usage.json`. */
export async function recordSkillUsage(stateDirectory: string, skill: string, command: string, now = new Date()): Promise<void> {
  const time = now.toISOString();
  await updateJsonState(join(stateDirectory, USAGE_FILE_NAME), (state) => {
    const previous = state[skill] as SkillUsage | undefined;
    const commands = { ...previous?.commands, [command]: bump(previous?.commands?.[command], time) };
    return { ...state, [skill]: { ...bump(previous, time), commands } };
  });
}

/** The usage records, by skill name. */
export async function readSkillUsage(stateDirectory: string): Promise<Record<string, SkillUsage>> {
  return (await readJsonState(join(stateDirectory, USAGE_FILE_NAME))) as Record<string, SkillUsage>;
}
