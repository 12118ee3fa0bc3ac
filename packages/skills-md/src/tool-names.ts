import { createHash } from 'node:crypto';

const MAX_TOOL_NAME = 64;

/** A name folded to what tool names allow: `[a-zA-Z0-9_-]`, at most 64 characters (a cut one ends in a hash of the whole, so two stay apart). */
export function foldToolName(name: string): string {
  const folded = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (folded.length <= MAX_TOOL_NAME) return folded;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${folded.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** The tool of a command: `<skill>` for a package's single `command`, else `<skill>__<command>`. */
export function commandToolName(skill: string, command: string | undefined): string {
  return foldToolName(command === undefined ? skill : `${skill}__${command}`);
}
