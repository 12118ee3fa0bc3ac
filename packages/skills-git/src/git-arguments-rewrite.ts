import type { PermissionLevel } from '@nexus/core';
import type { ParsedGitCommand } from './git-arguments.js';
import { type StructuredKind, structuredOptions } from './git-structured-output.js';

const NO_PROGRAMS = ['--no-ext-diff', '--no-textconv'];
const NO_SUBMODULE_WORK_TREES = '--ignore-submodules=dirty';

/** Options read-only commands get below yolo so no external diff, textconv or submodule work tree comes into play. */
const READ_ONLY_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  status: [NO_SUBMODULE_WORK_TREES],
  diff: [...NO_PROGRAMS, NO_SUBMODULE_WORK_TREES],
  'diff-files': [...NO_PROGRAMS, NO_SUBMODULE_WORK_TREES],
  'diff-index': [...NO_PROGRAMS, NO_SUBMODULE_WORK_TREES],
  'diff-tree': NO_PROGRAMS,
  log: NO_PROGRAMS,
  show: NO_PROGRAMS,
  whatchanged: NO_PROGRAMS,
  blame: ['--no-textconv'],
  annotate: ['--no-textconv'],
};

/** Inserts options after the user's own (the last occurrence wins) but before a `--`. */
function insertBeforeSeparator(rest: readonly string[], options: readonly string[]): string[] {
  const separator = rest.indexOf('--');
  return separator === -1 ? [...rest, ...options] : [...rest.slice(0, separator), ...options, ...rest.slice(separator)];
}

/**
 * The subcommand's arguments as the skill runs them: plus the options of the structured form,
 * plus (below yolo) the read-only hardening options; at `trusted` a `checkout` of one name gets
 * a trailing `--`, so git takes the name as a branch or commit and never as paths to overwrite.
 */
export function rewriteSubcommandArguments(
  parsed: ParsedGitCommand,
  level: PermissionLevel,
  readOnly: boolean,
  kind: StructuredKind | undefined,
): string[] {
  const hardening = level !== 'yolo' && readOnly ? (READ_ONLY_OPTIONS[parsed.subcommand ?? ''] ?? []) : [];
  const rest = insertBeforeSeparator(parsed.rest, [...structuredOptions(kind), ...hardening]);
  if (level === 'trusted' && parsed.subcommand === 'checkout' && !rest.includes('--')) rest.push('--');
  return rest;
}
