import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Runs real git for a test's set-up, isolated from the host's configuration (no system or user
 * config, fixed author and dates), and returns its output.
 */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_DATE: '2024-01-02T03:04:05Z',
      GIT_COMMITTER_DATE: '2024-01-02T03:04:05Z',
    },
  });
}

/** Options of {@link createGitRepository}. */
export interface GitRepositoryOptions {
  /** Files of the first commit, by relative path (default `{ 'a.txt': 'hello\n' }`); `{}` makes no commit. */
  files?: Record<string, string>;
  /** URL of an `origin` remote to add. */
  origin?: string;
}

/**
 * Creates a git repository at `path` (branch `main`, a test identity), with one commit of `files`
 * unless they are empty, and optionally an `origin` remote. Returns `path`.
 */
export function createGitRepository(path: string, options: GitRepositoryOptions = {}): string {
  const { files = { 'a.txt': 'hello\n' }, origin } = options;
  mkdirSync(path, { recursive: true });
  git(path, 'init', '-q', '-b', 'main');
  git(path, 'config', 'user.name', 'Test User');
  git(path, 'config', 'user.email', 'test@example.com');
  if (origin !== undefined) git(path, 'remote', 'add', 'origin', origin);
  if (Object.keys(files).length === 0) return path;
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(path, name)), { recursive: true });
    writeFileSync(join(path, name), content);
  }
  git(path, 'add', '.');
  git(path, 'commit', '-q', '-m', 'Initial commit', '-m', 'With a body line.');
  return path;
}
