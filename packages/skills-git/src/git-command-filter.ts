import type { BlockedPattern, CommandFilter, CommandInvocation } from '@nexus/skills-exec/kit';
import { beforeSeparator, hasOption, type ParsedGitCommand, positionalArguments } from './git-arguments.js';

/** Subcommands that only read, whatever their arguments (allowed at `sandboxed`). */
export const READ_ONLY_GIT_COMMANDS: readonly string[] = [
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'annotate',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'describe',
  'shortlog',
  'grep',
  'cat-file',
  'rev-list',
  'show-ref',
  'for-each-ref',
  'merge-base',
  'name-rev',
  'whatchanged',
  'count-objects',
  'diff-tree',
  'diff-files',
  'diff-index',
  'cherry',
  'range-diff',
  'check-ignore',
  'check-attr',
  'show-branch',
  'version',
];

/**
 * Subcommands that read or write and run nothing but git itself, so `trusted` may use them
 * (blocked patterns aside). Anything else — aliases, `git-*` programs on PATH, `submodule`,
 * `difftool`, `help`, `daemon` … — could run other programs and only runs at `yolo`.
 */
export const KNOWN_GIT_COMMANDS: ReadonlySet<string> = new Set([
  ...READ_ONLY_GIT_COMMANDS,
  'add',
  'apply',
  'archive',
  'bisect',
  'branch',
  'checkout',
  'cherry-pick',
  'clean',
  'clone',
  'commit',
  'config',
  'fetch',
  'format-patch',
  'gc',
  'init',
  'ls-remote',
  'merge',
  'mv',
  'notes',
  'pull',
  'push',
  'rebase',
  'reflog',
  'remote',
  'reset',
  'restore',
  'revert',
  'rm',
  'stash',
  'switch',
  'tag',
  'worktree',
  'filter-branch',
  'prune',
]);

// Options of `branch` and `tag` that take the next word as their value.
const LISTING_VALUE_OPTIONS = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format']);

function listsOnly(rest: readonly string[], modifyingLong: readonly string[], modifyingShort: string): boolean {
  if (hasOption(rest, modifyingLong, modifyingShort)) return false;
  return positionalArguments(rest, LISTING_VALUE_OPTIONS).length === 0 || hasOption(rest, ['--list'], 'l');
}

function action(rest: readonly string[]): string | undefined {
  return positionalArguments(rest)[0];
}

const READ_ONLY_ACTIONS: Record<string, (rest: readonly string[]) => boolean> = {
  branch: (rest) =>
    listsOnly(
      rest,
      [
        '--delete',
        '--move',
        '--copy',
        '--force',
        '--set-upstream-to',
        '--unset-upstream',
        '--edit-description',
        '--track',
        '--no-track',
        '--create-reflog',
        '--recurse-submodules',
      ],
      'dDmMcCfut',
    ),
  tag: (rest) =>
    listsOnly(
      rest,
      ['--annotate', '--sign', '--local-user', '--force', '--delete', '--verify', '--message', '--file', '--edit', '--create-reflog'],
      'asufdvmFe',
    ),
  // `remote show` contacts the remote unless `-n`.
  remote: (rest) => {
    const subaction = action(rest);
    return subaction === undefined || subaction === 'get-url' || (subaction === 'show' && hasOption(rest, [], 'n'));
  },
  stash: (rest) => ['list', 'show'].includes(rest[0] ?? ''),
  reflog: (rest) => rest.length === 0 || ['show', 'exists'].includes(rest[0] ?? '') || (rest[0] ?? '').startsWith('-'),
  worktree: (rest) => rest[0] === 'list',
};

/** Whether a parsed git command only reads (the `sandboxed` allow-list). */
export function isReadOnlyGitCommand({ subcommand, rest }: ParsedGitCommand): boolean {
  if (subcommand === undefined) return false;
  if (READ_ONLY_GIT_COMMANDS.includes(subcommand)) return true;
  return READ_ONLY_ACTIONS[subcommand]?.(rest) ?? false;
}

type GitInvocation = CommandInvocation<ParsedGitCommand>;

function on(subcommand: string, test: (rest: readonly string[]) => boolean): (invocation: GitInvocation) => boolean {
  return ({ parsed }) => parsed.subcommand === subcommand && test(parsed.rest);
}

/** What `trusted` may not run, each with the reason the LLM is told (seed 000 §Git Command Filtering). */
const GIT_BLOCKED_PATTERNS: readonly BlockedPattern<ParsedGitCommand>[] = [
  {
    pattern: ({ parsed: { subcommand } }) => subcommand !== undefined && !KNOWN_GIT_COMMANDS.has(subcommand),
    reason:
      'only built-in git commands run below yolo; aliases, git-* programs, submodule, difftool, help and the like can run other programs',
  },
  { pattern: on('reset', (rest) => hasOption(rest, ['--hard', '--merge'])), reason: 'reset --hard/--merge discards uncommitted changes' },
  {
    pattern: on(
      'push',
      (rest) =>
        hasOption(rest, ['--force', '--force-with-lease', '--force-if-includes'], 'f') ||
        beforeSeparator(rest).some((word) => word.startsWith('+')),
    ),
    reason: 'a force push (--force, -f, --force-with-lease, +refspec) overwrites remote history',
  },
  {
    pattern: on(
      'push',
      (rest) => hasOption(rest, ['--delete', '--mirror', '--prune'], 'd') || positionalArguments(rest).some((word) => word.startsWith(':')),
    ),
    reason: 'push --delete/--mirror/--prune and :refspec delete remote branches',
  },
  {
    pattern: on('clean', (rest) => !hasOption(rest, ['--dry-run'], 'n')),
    reason: 'clean deletes untracked files; only a dry run (clean -n) runs below yolo',
  },
  {
    pattern: on(
      'branch',
      (rest) =>
        hasOption(rest, [], 'DMC') || (hasOption(rest, ['--delete', '--move', '--copy'], 'dmc') && hasOption(rest, ['--force'], 'f')),
    ),
    reason: 'branch -D/-M/-C (or with --force) deletes or overwrites a branch, losing unmerged commits',
  },
  {
    pattern: on(
      'checkout',
      (rest) =>
        hasOption(rest, ['--force', '--pathspec-from-file'], 'fB') ||
        rest.includes('--') ||
        positionalArguments(rest, new Set(['-b', '--orphan'])).length > 1,
    ),
    reason: 'checkout with paths, -f or -B discards uncommitted changes; use switch for branches and restore --staged to unstage',
  },
  {
    pattern: on('switch', (rest) => hasOption(rest, ['--discard-changes', '--force', '--force-create'], 'fC')),
    reason: 'switch --discard-changes/--force/-C discards changes or resets a branch',
  },
  {
    pattern: on('restore', (rest) => !hasOption(rest, ['--staged'], 'S') || hasOption(rest, ['--worktree'], 'W')),
    reason:
      'restore without --staged (or with --worktree) discards uncommitted changes in the working tree; restore --staged only unstages',
  },
  { pattern: on('rm', (rest) => hasOption(rest, ['--force'], 'f')), reason: 'rm --force deletes files with uncommitted changes' },
  { pattern: on('mv', (rest) => hasOption(rest, ['--force'], 'f')), reason: 'mv --force overwrites existing files' },
  { pattern: on('tag', (rest) => hasOption(rest, ['--force'], 'f')), reason: 'tag --force moves an existing tag' },
  { pattern: on('stash', (rest) => ['drop', 'clear'].includes(action(rest) ?? '')), reason: 'stash drop/clear deletes stashed changes' },
  {
    pattern: on('worktree', (rest) => action(rest) === 'remove' && hasOption(rest, ['--force'], 'f')),
    reason: 'worktree remove --force deletes uncommitted changes',
  },
  { pattern: on('rebase', () => true), reason: 'rebase rewrites history' },
  { pattern: on('filter-branch', () => true), reason: 'filter-branch rewrites history' },
  {
    pattern: on('reflog', (rest) => ['expire', 'delete'].includes(action(rest) ?? '')),
    reason: 'reflog expire/delete removes the safety net for lost commits',
  },
  { pattern: on('gc', (rest) => hasOption(rest, ['--prune'])), reason: 'gc --prune deletes unreachable objects' },
  { pattern: on('prune', () => true), reason: 'prune deletes unreachable objects' },
  { pattern: on('bisect', (rest) => action(rest) === 'run'), reason: 'bisect run executes a program' },
  {
    pattern: on('config', (rest) => hasOption(rest, ['--global', '--system', '--file', '--blob', '--edit'], 'fe')),
    reason: "config may only touch the repository's own configuration below yolo",
  },
];

/** The git skill's {@link CommandFilter}, over git's parsed arguments. */
export const gitCommandFilter: CommandFilter<ParsedGitCommand> = {
  readOnlyCommands: ({ parsed }) => isReadOnlyGitCommand(parsed),
  blockedPatterns: GIT_BLOCKED_PATTERNS,
};
