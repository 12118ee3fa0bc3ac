import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolResult } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { createGitRepository, git, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseGitArguments } from './git-arguments.js';
import { isReadOnlyGitCommand } from './git-command-filter.js';
import { type GitBranch, type GitStatus, gitSkills } from './index.js';
import { BRANCH_FORMAT_OPTION, parseBranchList } from './output/branch-list.js';
import { LOG_FORMAT_OPTIONS, parseLogCommits } from './output/log-commits.js';
import { formatStatus, parseStatusPorcelainV2 } from './output/status-porcelain.js';

function dataOf<T>(result: ToolResult): T {
  return result.data as unknown as T;
}

describe('parseGitArguments', () => {
  it('finds the subcommand after global options with and without values', () => {
    expect(parseGitArguments(['-C', 'sub', '--git-dir=.git', '--no-pager', 'log', '-1'])).toEqual({
      globals: [
        { name: '-C', value: 'sub', words: ['-C', 'sub'] },
        { name: '--git-dir', value: '.git', words: ['--git-dir=.git'] },
        { name: '--no-pager', value: undefined, words: ['--no-pager'] },
      ],
      subcommand: 'log',
      rest: ['-1'],
    });
    expect(parseGitArguments(['-c', 'a=b', 'status']).subcommand).toBe('status');
    expect(parseGitArguments(['--work-tree', 'x', 'diff']).subcommand).toBe('diff');
    expect(parseGitArguments(['--version'])).toEqual({ globals: [], subcommand: 'version', rest: [] });
    expect(parseGitArguments(['--no-pager']).subcommand).toBeUndefined();
  });

  it('tells listing from changing for branch, tag, remote, stash and reflog', () => {
    const readOnly = (line: string) => isReadOnlyGitCommand(parseGitArguments(line.split(' ')));
    expect(
      [
        'branch',
        'branch -a',
        'branch -vv',
        'branch --list feat*',
        'branch --contains HEAD',
        'tag',
        'tag -l v*',
        'remote -v',
        'remote get-url origin',
        'remote show -n origin',
        'stash list',
        'reflog',
        'reflog show main',
        'worktree list',
      ].filter((line) => !readOnly(line)),
    ).toEqual([]);
    expect(
      [
        'branch new',
        'branch -d x',
        'branch -fD x',
        'branch --set-upstream-to=o/m',
        'tag v1',
        'tag -a v1 -m x',
        'remote add o u',
        'remote show origin',
        'stash',
        'stash pop',
        'reflog expire',
        'worktree add x',
        'push',
        'config -l',
      ].filter(readOnly),
    ).toEqual([]);
  });
});

describe('status porcelain v2', () => {
  it('parses branch headers, every entry kind and paths with spaces', () => {
    const text = [
      '# branch.oid 1234567890abcdef1234567890abcdef12345678',
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +2 -1',
      '1 .M N... 100644 100644 100644 aaa bbb file with spaces.txt',
      '2 R. N... 100644 100644 100644 aaa bbb R100 new name.txt',
      'old name.txt',
      '2 C. N... 100644 100644 100644 aaa bbb C75 copy.txt',
      'orig.txt',
      'u UU N... 100644 100644 100644 100644 aaa bbb ccc conflict.txt',
      '? untracked.txt',
      '! ignored.log',
      '',
    ].join('\0');
    const status = parseStatusPorcelainV2(text);
    expect(status.branch).toEqual({
      head: 'main',
      oid: '1234567890abcdef1234567890abcdef12345678',
      upstream: 'origin/main',
      ahead: 2,
      behind: 1,
    });
    expect(status.entries).toEqual([
      { kind: 'changed', index: '.', worktree: 'M', path: 'file with spaces.txt' },
      { kind: 'renamed', index: 'R', worktree: '.', path: 'new name.txt', originalPath: 'old name.txt' },
      { kind: 'copied', index: 'C', worktree: '.', path: 'copy.txt', originalPath: 'orig.txt' },
      { kind: 'unmerged', index: 'U', worktree: 'U', path: 'conflict.txt' },
      { kind: 'untracked', index: '?', worktree: '?', path: 'untracked.txt' },
      { kind: 'ignored', index: '!', worktree: '!', path: 'ignored.log' },
    ]);
    expect(formatStatus(status)).toBe(
      [
        '## main...origin/main [ahead 2, behind 1]',
        ' M file with spaces.txt',
        'R  old name.txt -> new name.txt',
        'C  orig.txt -> copy.txt',
        'UU conflict.txt',
        '?? untracked.txt',
        '!! ignored.log',
      ].join('\n'),
    );
  });

  it('renders detached and unborn branches', () => {
    expect(formatStatus(parseStatusPorcelainV2('# branch.oid abc\0# branch.head (detached)\0'))).toBe(
      '## HEAD (no branch)\nnothing to commit, working tree clean',
    );
    expect(formatStatus(parseStatusPorcelainV2('# branch.oid (initial)\0# branch.head main\0'))).toBe(
      '## No commits yet on main\nnothing to commit, working tree clean',
    );
  });
});

describe('log and branch parsing', () => {
  it('drops a commit cut off by truncation', () => {
    const fields = (subject: string) => ['h', 's', '', 'n', 'e', 'd', 'n', 'e', 'd', subject, ''].join('\0');
    const text = `${fields('one')}\0${fields('two')}\0h2\0s2`;
    expect(parseLogCommits(text).map((commit) => commit.subject)).toEqual(['one', 'two']);
    expect(parseLogCommits(`${fields('one')}\0${fields('two')}\n[output truncated: …]`, true).map((commit) => commit.subject)).toEqual([
      'one',
    ]);
    expect(LOG_FORMAT_OPTIONS).toContain('-z');
  });

  it('reads detached HEAD entries', () => {
    const line = ['*', '(HEAD detached at abc1234)', '(HEAD detached at abc1234)', 'abc1234', '', '', 'subject'].join('\0');
    expect(parseBranchList(`${line}\n`)).toEqual([
      { name: '(HEAD detached at abc1234)', ref: null, current: true, commit: 'abc1234', upstream: null, track: null, subject: 'subject' },
    ]);
    expect(BRANCH_FORMAT_OPTION.startsWith('--format=')).toBe(true);
  });
});

describe('structured data from real repositories', () => {
  let dir: TestDir;
  let upstream: string;
  let clone: string;
  beforeEach(async () => {
    dir = await testdir();
    upstream = createGitRepository(dir.join('upstream'));
    clone = dir.join('clone');
    git(dir.path, 'clone', '-q', upstream, clone);
    git(clone, 'config', 'user.name', 'Test User');
    git(clone, 'config', 'user.email', 'test@example.com');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('reports upstream, ahead and behind', async () => {
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'local');
    git(upstream, 'commit', '-q', '--allow-empty', '-m', 'remote');
    git(clone, 'fetch', '-q');
    const agent = createTestAgent({ cwd: clone, families: [gitSkills] });
    const status = dataOf<{ status: GitStatus }>(await agent.call('git', { command: 'status' })).status;
    expect(status.branch).toMatchObject({ head: 'main', upstream: 'origin/main', ahead: 1, behind: 1 });
    const branches = dataOf<{ branches: GitBranch[] }>(await agent.call('git', { command: 'branch -a' })).branches;
    expect(branches.find((branch) => branch.name === 'main')).toMatchObject({
      current: true,
      upstream: 'origin/main',
      track: 'ahead 1, behind 1',
      subject: 'local',
    });
    expect(branches.map((branch) => branch.name)).toContain('origin/main');
  });

  it('reports an unmerged path after a conflict', async () => {
    writeFileSync(join(clone, 'a.txt'), 'ours\n');
    git(clone, 'commit', '-q', '-am', 'ours');
    git(clone, 'checkout', '-q', '-b', 'theirs', 'HEAD~1');
    writeFileSync(join(clone, 'a.txt'), 'theirs\n');
    git(clone, 'commit', '-q', '-am', 'theirs');
    git(clone, 'checkout', '-q', 'main');
    expect(() => git(clone, 'merge', '-q', 'theirs')).toThrow();
    const result = await createTestAgent({ cwd: clone, families: [gitSkills] }).call('git', { command: 'status' });
    expect(dataOf<{ status: GitStatus }>(result).status.entries).toEqual([{ kind: 'unmerged', index: 'U', worktree: 'U', path: 'a.txt' }]);
    expect(result.output).toContain('UU a.txt');
  });
});
