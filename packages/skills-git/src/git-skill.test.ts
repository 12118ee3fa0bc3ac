import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ConfirmationRequest, type PermissionLevel, resolvePreset, ServiceContainer, type ToolResult } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { createGitRepository, git, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitBranch, type GitCommit, type GitStatus, gitSkill, gitSkills } from './index.js';
import { GIT_TIMEOUT_SECONDS } from './skills/git.js';

const gitAgent = (cwd: string, preset: PermissionLevel, confirm?: boolean) =>
  createTestAgent({ cwd, preset, families: [gitSkills], confirm });

function dataOf<T>(result: ToolResult): T {
  return result.data as unknown as T;
}

let dir: TestDir;
let repo: string;
beforeEach(async () => {
  dir = await testdir();
  repo = createGitRepository(dir.join('repo'));
});
afterEach(async () => {
  await dir.cleanup();
});

describe('gitSkills family', () => {
  it('holds the git skill, offered at every level', () => {
    expect(gitSkills).toMatchObject({ name: 'git', skills: [{ name: 'git', minimumLevel: 'sandboxed' }] });
    expect(gitAgent(repo, 'sandboxed').registry.getDefinitionsForPermissions(resolvePreset('sandboxed', { cwd: repo }))).toHaveLength(1);
    expect(gitSkill.parameters).toMatchObject({
      required: ['command'],
      properties: { command: { type: 'string' }, cwd: { type: 'string' } },
    });
    expect(GIT_TIMEOUT_SECONDS).toBe(30);
  });
});

describe('read-only commands at sandboxed', () => {
  it('parses status into data and renders it like status --short --branch', async () => {
    writeFileSync(join(repo, 'a.txt'), 'hello\nchanged\n');
    writeFileSync(join(repo, 'new file.txt'), 'untracked\n');
    writeFileSync(join(repo, 'staged.txt'), 'staged\n');
    git(repo, 'add', 'staged.txt');
    git(repo, 'mv', 'a.txt', 'renamed.txt');
    const result = await gitAgent(repo, 'sandboxed').call('git', { command: 'git status' });
    expect(result.success).toBe(true);
    expect(result.output).toBe(['## main', 'RM a.txt -> renamed.txt', 'A  staged.txt', '?? new file.txt'].join('\n'));
    const status = dataOf<{ status: GitStatus }>(result).status;
    expect(status.branch).toEqual({ head: 'main', oid: git(repo, 'rev-parse', 'HEAD').trim(), upstream: null, ahead: null, behind: null });
    expect(status.clean).toBe(false);
    expect(status.entries).toEqual([
      { kind: 'renamed', index: 'R', worktree: 'M', path: 'renamed.txt', originalPath: 'a.txt' },
      { kind: 'changed', index: 'A', worktree: '.', path: 'staged.txt' },
      { kind: 'untracked', index: '?', worktree: '?', path: 'new file.txt' },
    ]);
  });

  it('reports a clean tree and keeps a format the caller chose', async () => {
    const agent = gitAgent(repo, 'sandboxed');
    const clean = await agent.call('git', { command: 'status' });
    expect(clean.output).toBe('## main\nnothing to commit, working tree clean');
    expect(clean.data).toMatchObject({ status: { clean: true, entries: [] } });
    const short = await agent.call('git', { command: 'status -s' });
    expect(short).toMatchObject({ success: true, output: '(no output)' });
    expect(short.data).not.toHaveProperty('status');
  });

  it('parses log into commits and renders the default format', async () => {
    git(repo, 'checkout', '-q', '-b', 'side');
    writeFileSync(join(repo, 'b.txt'), 'b\n');
    git(repo, 'add', 'b.txt');
    git(repo, 'commit', '-q', '-m', 'Add b');
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
    const result = await gitAgent(repo, 'sandboxed').call('git', { command: 'log --topo-order -n 3' });
    const commits = dataOf<{ commits: GitCommit[] }>(result).commits;
    expect(commits.map((commit) => commit.subject)).toEqual(['Merge side', 'Add b', 'Initial commit']);
    expect(commits[0]?.parents).toHaveLength(2);
    expect(commits[2]).toMatchObject({
      body: 'With a body line.',
      author: { name: 'Test User', email: 'test@example.com', date: '2024-01-02T03:04:05+00:00' },
      parents: [],
    });
    expect(result.output).toContain(`commit ${commits[0]?.hash}\nMerge: `);
    expect(result.output).toContain(
      'Author: Test User <test@example.com>\nDate:   2024-01-02T03:04:05+00:00\n\n    Initial commit\n\n    With a body line.',
    );
    const oneline = await gitAgent(repo, 'sandboxed').call('git', { command: 'log --oneline' });
    expect(oneline.output.split('\n')).toHaveLength(3);
    expect(oneline.data).not.toHaveProperty('commits');
  });

  it('parses branch listings', async () => {
    git(repo, 'branch', 'feature');
    const result = await gitAgent(repo, 'sandboxed').call('git', { command: 'branch' });
    expect(result.output).toBe('  feature\n* main');
    const branches = dataOf<{ branches: GitBranch[] }>(result).branches;
    expect(branches).toEqual([
      {
        name: 'feature',
        ref: 'refs/heads/feature',
        current: false,
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        upstream: null,
        track: null,
        subject: 'Initial commit',
      },
      {
        name: 'main',
        ref: 'refs/heads/main',
        current: true,
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        upstream: null,
        track: null,
        subject: 'Initial commit',
      },
    ]);
  });

  it.each([
    ['diff', (output: string) => expect(output).toContain('+more')],
    ['diff --stat', (output: string) => expect(output).toContain('a.txt | 1 +')],
    ['show HEAD:a.txt', (output: string) => expect(output).toBe('hello')],
    ['blame a.txt', (output: string) => expect(output).toContain('hello')],
    ['grep -n hello', (output: string) => expect(output).toBe('a.txt:1:hello')],
    ['ls-files', (output: string) => expect(output).toBe('a.txt')],
    ['rev-parse --abbrev-ref HEAD', (output: string) => expect(output).toBe('main')],
    ['describe --always --dirty', (output: string) => expect(output).toMatch(/^[0-9a-f]{7,}-dirty$/)],
    ['--version', (output: string) => expect(output).toMatch(/^git version /)],
    ['-C . --no-pager log --format=%s', (output: string) => expect(output).toBe('Initial commit')],
    ['stash list', (output: string) => expect(output).toBe('(no output)')],
    ['remote -v', (output: string) => expect(output).toBe('(no output)')],
  ])('runs %s', async (command, check) => {
    writeFileSync(join(repo, 'a.txt'), 'hello\nmore\n');
    const result = await gitAgent(repo, 'sandboxed').call('git', { command });
    expect(result.error).toBe('');
    check(result.output);
  });

  it.each([
    'commit -m x --allow-empty',
    'add a.txt',
    'branch feature',
    'branch -d main',
    'tag v1',
    'tag -d v1',
    'stash',
    'remote add origin https://example.com/x.git',
    'remote show origin',
    'checkout -b other',
    'fetch',
    'config user.name x',
    'reflog expire --all',
    'worktree add ../wt',
    'gc',
  ])('refuses %j', async (command) => {
    const before = git(repo, 'for-each-ref');
    const result = await gitAgent(repo, 'sandboxed').call('git', { command });
    expect(result).toMatchObject({ kind: 'forbidden' });
    expect(result.error).toMatch(/read-only|blocked/);
    expect(git(repo, 'for-each-ref')).toBe(before);
  });

  it('refuses a working directory outside the sandbox', async () => {
    const other = createGitRepository(dir.join('other'));
    expect(await gitAgent(repo, 'sandboxed').call('git', { command: 'status', cwd: other })).toMatchObject({ kind: 'forbidden' });
    expect(await gitAgent(repo, 'sandboxed').call('git', { command: 'status', cwd: '..' })).toMatchObject({ kind: 'forbidden' });
  });
});

describe('trusted', () => {
  it('runs write commands', async () => {
    const agent = gitAgent(repo, 'trusted');
    writeFileSync(join(repo, 'b.txt'), 'b\n');
    expect(await agent.call('git', { command: 'add b.txt' })).toMatchObject({ success: true });
    expect(await agent.call('git', { command: 'commit -m "Add b"' })).toMatchObject({ success: true });
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Add b');
    expect(await agent.call('git', { command: 'switch -c feature' })).toMatchObject({ success: true });
    expect(await agent.call('git', { command: 'checkout main' })).toMatchObject({ success: true });
    expect(await agent.call('git', { command: 'branch -d feature' })).toMatchObject({ success: true });
  });

  it('clones and initialises inside the working directory', async () => {
    const agent = gitAgent(repo, 'trusted');
    createGitRepository(dir.join('upstream'), { files: { 'up.txt': 'from upstream\n' } });
    const cloned = await agent.call('git', { command: 'clone -q ../upstream copy' });
    expect(cloned.error).toBe('');
    expect(readFileSync(join(repo, 'copy', 'up.txt'), 'utf8')).toBe('from upstream\n');
    expect(await agent.call('git', { command: 'init -q fresh' })).toMatchObject({ success: true });
    expect(existsSync(join(repo, 'fresh', '.git'))).toBe(true);
  });

  it.each([
    ['reset --hard HEAD~1', 'reset --hard'],
    ['reset --merge', 'reset --hard'],
    ['push --force origin main', 'force push'],
    ['push -f', 'force push'],
    ['push -uf origin main', 'force push'],
    ['push --force-with-lease', 'force push'],
    ['push --force-with-lease=main:abc', 'force push'],
    ['push origin +main', 'force push'],
    ['push origin :main', 'delete remote branches'],
    ['push --delete origin main', 'delete remote branches'],
    ['push --mirror', 'delete remote branches'],
    ['clean -f', 'clean deletes untracked files'],
    ['clean -fdx', 'clean deletes untracked files'],
    ['clean -d', 'clean deletes untracked files'],
    ['branch -D main', 'branch -D'],
    ['branch -d --force main', 'branch -D'],
    ['branch -M old new', 'branch -D'],
    ['checkout -- a.txt', 'discards uncommitted changes'],
    ['checkout HEAD a.txt', 'discards uncommitted changes'],
    ['checkout -f main', 'discards uncommitted changes'],
    ['checkout -B main', 'discards uncommitted changes'],
    ['switch --discard-changes main', 'discards changes'],
    ['switch -C main', 'discards changes'],
    ['restore a.txt', 'discards uncommitted changes'],
    ['restore --staged --worktree a.txt', 'discards uncommitted changes'],
    ['rm -f a.txt', 'rm --force'],
    ['stash drop', 'stash drop/clear'],
    ['stash clear', 'stash drop/clear'],
    ['rebase main', 'rewrites history'],
    ['rebase -i HEAD~1', 'rewrites history'],
    ['filter-branch --tree-filter true HEAD', 'rewrites history'],
    ['reflog expire --expire=now --all', 'reflog expire/delete'],
    ['gc --prune=now', 'gc --prune'],
    ['prune', 'prune deletes'],
    ['bisect run make', 'executes a program'],
    ['config --global user.name x', "repository's own configuration"],
    ['submodule foreach touch x', 'only built-in git commands'],
    ['difftool', 'only built-in git commands'],
    ['help log', 'only built-in git commands'],
    ['st', 'only built-in git commands'],
  ])('refuses %j with its reason', async (command, reason) => {
    const result = await gitAgent(repo, 'trusted').call('git', { command });
    expect(result).toMatchObject({ kind: 'forbidden' });
    expect(result.error).toContain(reason);
  });

  it('never lets checkout overwrite a modified file', async () => {
    writeFileSync(join(repo, 'a.txt'), 'precious work\n');
    const result = await gitAgent(repo, 'trusted').call('git', { command: 'checkout a.txt' });
    expect(result).toMatchObject({ kind: 'execution_failed', error: expect.stringContaining('invalid reference: a.txt') });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('precious work\n');
    expect(await gitAgent(repo, 'trusted').call('git', { command: 'checkout .' })).toMatchObject({ success: false });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('precious work\n');
  });

  it('unstages with restore --staged', async () => {
    writeFileSync(join(repo, 'a.txt'), 'work\n');
    git(repo, 'add', 'a.txt');
    expect(await gitAgent(repo, 'trusted').call('git', { command: 'restore --staged a.txt' })).toMatchObject({ success: true });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('work\n');
    expect(git(repo, 'status', '--porcelain')).toBe(' M a.txt\n');
  });

  it('asks before a write command in a repository outside the working directory', async () => {
    const other = createGitRepository(dir.join('other'));
    const refusing = gitAgent(repo, 'trusted', false);
    expect(await refusing.call('git', { command: 'commit --allow-empty -m x', cwd: other })).toMatchObject({ kind: 'forbidden' });
    expect(refusing.confirmations[0]).toMatchObject({ tool: 'git', action: expect.stringContaining(other) });
    expect(await refusing.call('git', { command: 'log -1', cwd: other })).toMatchObject({ success: true });
    const approving = gitAgent(repo, 'trusted', true);
    expect(await approving.call('git', { command: 'commit --allow-empty -m outside', cwd: other })).toMatchObject({ success: true });
    expect(approving.confirmations).toHaveLength(1);
    expect(git(other, 'log', '-1', '--format=%s').trim()).toBe('outside');
  });

  it('asks again, in the same call, for a git directory the approved repository points elsewhere', async () => {
    const elsewhere = createGitRepository(dir.join('elsewhere'));
    const other = dir.join('other');
    mkdirSync(other);
    writeFileSync(join(other, '.git'), `gitdir: ${elsewhere}/.git\n`);
    const asked: string[] = [];
    const refuseElsewhere = (request: ConfirmationRequest) => (asked.push(request.path ?? ''), request.path === other);

    const result = await gitAgent(repo, 'trusted', false).call(
      'git',
      { command: 'commit --allow-empty -m x', cwd: other },
      { confirm: refuseElsewhere },
    );

    expect(result).toMatchObject({ kind: 'forbidden' });
    expect(asked).toEqual([other, join(elsewhere, '.git')]);
    expect(git(elsewhere, 'rev-list', '--count', 'HEAD').trim()).toBe('1');
  });

  it("asks the call's own confirm (an MCP client, a terminal) for -C outside the working directory", async () => {
    const other = createGitRepository(dir.join('other'));
    const agent = gitAgent(repo, 'trusted', false);
    const asked: ConfirmationRequest[] = [];
    const confirm = (request: ConfirmationRequest) => (asked.push(request), true);
    expect(await agent.call('git', { command: `-C ${other} commit --allow-empty -m asked` }, { confirm })).toMatchObject({ success: true });
    // Once for the whole call: -C, the work tree and the git directory inside it are one approval.
    expect(asked).toEqual([expect.objectContaining({ tool: 'git', action: expect.stringContaining(other) })]);
    expect(agent.confirmations).toEqual([]);
    expect(git(other, 'log', '-1', '--format=%s').trim()).toBe('asked');
  });
});

describe('yolo', () => {
  it('runs destructive commands', async () => {
    writeFileSync(join(repo, 'a.txt'), 'lost\n');
    const result = await gitAgent(repo, 'yolo').call('git', { command: 'reset --hard' });
    expect(result).toMatchObject({ success: true });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('hello\n');
  });
});

describe('parameters', () => {
  it.each([
    [{}, 'command'],
    [{ command: { sub: 'status' } }, 'command'],
    [{ command: '' }, 'command'],
    [{ command: 'status', cwd: ['x'] }, 'cwd'],
    [{ command: 'status', timeout: 5 }, 'timeout'],
  ])('%j is invalid_input naming %s', async (args, parameter) => {
    const result = await gitAgent(repo, 'sandboxed').call('git', args);
    expect(result).toMatchObject({ kind: 'invalid_input', data: { parameters: [parameter] } });
  });

  it('refuses shell syntax in the command', async () => {
    for (const command of ['status; rm -rf /', 'log | head', 'log $(id)', 'status > out', 'status && push']) {
      const result = await gitAgent(repo, 'yolo').call('git', { command });
      expect(result, command).toMatchObject({ kind: 'invalid_input', error: expect.stringContaining('shell syntax is refused') });
    }
    expect(existsSync(join(repo, 'out'))).toBe(false);
  });

  it('names the parameter when called without the registry', async () => {
    const skill = gitSkill.factory(new ServiceContainer().register('cwd', repo));
    expect(await skill.execute({ command: 3 })).toMatchObject({ kind: 'invalid_input', error: expect.stringContaining('`command`') });
    expect(await skill.execute({ command: 'git' })).toMatchObject({
      kind: 'invalid_input',
      error: expect.stringContaining('no arguments'),
    });
  });
});
