import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { PermissionDeniedError } from '@nexus/core';
import type { RunResult } from '@nexus/process';
import { assertNoRepositoryPrograms, neutralizingOverrides, parseConfigList } from './git-config-hardening.js';

/** Runs a helper git command with the same global options and hardening as the real one. */
export type GitRunner = (args: readonly string[]) => Promise<RunResult>;

/** Checks that a path git will use is inside the sandbox; throws otherwise. */
export type PathAuthorizer = (path: string, what: string) => Promise<unknown>;

async function locateRepository(runGit: GitRunner): Promise<string[]> {
  const query = ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'];
  const located = await runGit([...query, '--show-toplevel']);
  if (located.exitCode === 0) return located.stdout.split('\n').filter(Boolean);
  // Inside a bare repository or the .git directory there is no work tree.
  const withoutWorkTree = await runGit(query);
  return withoutWorkTree.exitCode === 0 ? withoutWorkTree.stdout.split('\n').filter(Boolean) : [];
}

async function readAlternates(commonDir: string): Promise<string[]> {
  const objects = resolve(commonDir, 'objects');
  let text: string;
  try {
    text = await readFile(resolve(objects, 'info', 'alternates'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => (isAbsolute(line) ? line : resolve(objects, line)));
}

/**
 * Looks at the repository before a command runs below yolo. Its git directory, common directory,
 * work tree (`core.worktree` included) and object alternates must pass `authorize` — a `.git` file
 * or config pointing elsewhere cannot lead git outside the sandbox. Its configuration decides
 * the rest: for read-only commands every program-running setting is neutralised (the returned
 * `key=value` overrides); a write command is refused when the repository's own configuration
 * sets one. Outside a repository (clone, init) only the user's configuration is looked at.
 */
export async function reviewRepository(runGit: GitRunner, authorize: PathAuthorizer, readOnly: boolean): Promise<[string, string][]> {
  const [gitDir, commonDir, workTree] = await locateRepository(runGit);
  for (const [path, what] of [
    [gitDir, 'git directory'],
    [commonDir, 'common git directory'],
    [workTree, 'work tree'],
  ] as const) {
    if (path !== undefined) await authorize(path, what);
  }
  if (commonDir !== undefined) for (const alternate of await readAlternates(commonDir)) await authorize(alternate, 'object alternate');

  const listing = await runGit(['config', '--list', '--null', '--show-scope']);
  if (listing.truncated || listing.exitCode !== 0) {
    throw new PermissionDeniedError(
      `The git configuration could not be inspected, so nothing runs below yolo: ${listing.truncated ? 'it is too large' : listing.stderr.trim()}`,
    );
  }
  const entries = parseConfigList(listing.stdout);
  if (readOnly) return neutralizingOverrides(entries);
  assertNoRepositoryPrograms(entries);
  return [];
}
