import { type JsonValue, ToolResult } from '@nexus/core';
import { type RunResult, runResultData, toolResultFromRun } from '@nexus/process';
import { beforeSeparator, hasOption, longOptionName, type ParsedGitCommand } from './git-arguments.js';
import { isReadOnlyGitCommand } from './git-command-filter.js';
import { BRANCH_FORMAT_OPTION, formatBranches, parseBranchList } from './output/branch-list.js';
import { formatCommits, LOG_FORMAT_OPTIONS, parseLogCommits } from './output/log-commits.js';
import { formatStatus, parseStatusPorcelainV2 } from './output/status-porcelain.js';

/** Commands whose output the skill parses into `data`. */
export type StructuredKind = 'status' | 'log' | 'branch';

// `git log` options that only choose which commits to show, so the skill may pick the format.
const COMMIT_SELECTION_OPTIONS = new Set([
  '--max-count',
  '--skip',
  '--since',
  '--after',
  '--until',
  '--before',
  '--author',
  '--committer',
  '--grep',
  '--all',
  '--branches',
  '--tags',
  '--remotes',
  '--glob',
  '--exclude',
  '--merges',
  '--no-merges',
  '--first-parent',
  '--reverse',
  '--ancestry-path',
  '--follow',
  '--regexp-ignore-case',
  '--all-match',
  '--invert-grep',
  '--extended-regexp',
  '--fixed-strings',
  '--no-walk',
  '--topo-order',
  '--date-order',
  '--author-date-order',
  '--max-parents',
  '--min-parents',
  '--not',
  '--no-ext-diff',
  '--no-textconv',
]);

function selectsCommitsOnly(word: string): boolean {
  if (word.startsWith('--')) return COMMIT_SELECTION_OPTIONS.has(longOptionName(word));
  return /^-(\d+|n\d*|[iEF])$/.test(word);
}

/**
 * Which structured form a command gets: `status`, `log` and branch listings whose arguments
 * leave the output format to the skill (no `--porcelain`, `--format`, `-p`, `-v` …).
 */
export function structuredKind(parsed: ParsedGitCommand): StructuredKind | undefined {
  const { subcommand, rest } = parsed;
  if (subcommand === 'status' && !hasOption(rest, ['--porcelain', '--short', '--long', '--null', '--verbose', '--column'], 'szv'))
    return 'status';
  if (
    subcommand === 'log' &&
    beforeSeparator(rest)
      .filter((word) => word.startsWith('-'))
      .every(selectsCommitsOnly)
  )
    return 'log';
  if (
    subcommand === 'branch' &&
    isReadOnlyGitCommand(parsed) &&
    !hasOption(rest, ['--format', '--verbose', '--column', '--show-current'], 'v')
  ) {
    return 'branch';
  }
  return undefined;
}

/** The options that make git print the structured form. */
export function structuredOptions(kind: StructuredKind | undefined): readonly string[] {
  if (kind === 'status') return ['--porcelain=v2', '--branch', '-z'];
  if (kind === 'log') return LOG_FORMAT_OPTIONS;
  if (kind === 'branch') return [BRANCH_FORMAT_OPTION];
  return [];
}

function parse(kind: StructuredKind, result: RunResult): { text: string; field: string; value: JsonValue } {
  if (kind === 'status') {
    const status = parseStatusPorcelainV2(result.stdout);
    return { text: formatStatus(status), field: 'status', value: status as unknown as JsonValue };
  }
  if (kind === 'log') {
    const commits = parseLogCommits(result.stdout, result.truncated);
    return { text: formatCommits(commits), field: 'commits', value: commits as unknown as JsonValue };
  }
  const branches = parseBranchList(result.stdout);
  return { text: formatBranches(branches), field: 'branches', value: branches as unknown as JsonValue };
}

/**
 * The git skill's result: for a structured command that succeeded, git-like text rendered from
 * the parsed output plus the parsed form in `data` (`status`, `commits` or `branches`); otherwise
 * the output as git printed it. `data` always holds the run.
 */
export function presentGitResult(kind: StructuredKind | undefined, result: RunResult, timeoutSeconds: number): ToolResult {
  if (kind === undefined || result.exitCode !== 0 || result.timedOut || result.cancelled)
    return toolResultFromRun('git', result, timeoutSeconds);
  const { text, field, value } = parse(kind, result);
  const stderr = result.stderr === '' ? '' : `\n[stderr]\n${result.stderr.replace(/\n$/, '')}`;
  const note = result.truncated ? '\n[output truncated]' : '';
  return ToolResult.ok(`${text || '(no output)'}${stderr}${note}`, { ...runResultData(result), stdout: text, [field]: value });
}
