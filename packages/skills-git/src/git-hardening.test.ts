import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionLevel } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { createGitRepository, git, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSkills } from './index.js';

const gitAgent = (cwd: string, preset: PermissionLevel, confirm?: boolean) =>
  createTestAgent({ cwd, preset, families: [gitSkills], confirm });

/** Writes an executable shell script. */
function writeScript(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** Names of the marker files in `directory` (each hostile program leaves one). */
function markers(directory: string): string[] {
  return existsSync(directory) ? readdirSync(directory).sort() : [];
}

const HOOKS = [
  'pre-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-rebase',
  'reference-transaction',
  'post-index-change',
  'pre-auto-gc',
  'fsmonitor-watchman',
];

let dir: TestDir;
let repo: string;
let markerDir: string;
/** A shell command leaving the marker `name`. */
let leave: (name: string) => string;

beforeEach(async () => {
  dir = await testdir();
  markerDir = dir.join('markers');
  mkdirSync(markerDir);
  leave = (name) => `touch ${markerDir}/${name}`;
  repo = createGitRepository(dir.join('repo'), {
    files: {
      'a.txt': 'hello\n',
      'b.md': '# title\n',
      '.gitattributes': '*.txt filter=evil diff=evil merge=evil\n*.md diff=evil2\n',
    },
  });
});
afterEach(async () => {
  await dir.cleanup();
});

function installHooks(directory: string, prefix: string): void {
  mkdirSync(directory, { recursive: true });
  for (const hook of HOOKS) writeScript(join(directory, hook), `${leave(`${prefix}-${hook}`)}\nexit 0`);
}

/** Turns `repo` into a repository whose configuration tries every way to make git run a program. */
function makeHostile(): void {
  const fsmonitor = dir.join('fsmonitor.sh');
  writeScript(fsmonitor, `${leave('fsmonitor')}\nexit 1`);
  installHooks(dir.join('evil-hooks'), 'hookspath');
  installHooks(join(repo, '.git', 'hooks'), 'hook');
  const included = dir.join('included.gitconfig');
  writeFileSync(included, `[diff "evil2"]\n\ttextconv = ${leave('included-textconv')}; cat\n`);
  const settings: Record<string, string> = {
    'core.fsmonitor': fsmonitor,
    'core.hooksPath': dir.join('evil-hooks'),
    'core.pager': `${leave('core-pager')}; cat`,
    'pager.log': `${leave('pager-log')}; cat`,
    'pager.diff': `${leave('pager-diff')}; cat`,
    'pager.status': `${leave('pager-status')}; cat`,
    'pager.show': `${leave('pager-show')}; cat`,
    'pager.blame': `${leave('pager-blame')}; cat`,
    'filter.evil.clean': `${leave('filter-clean')}; cat`,
    'filter.evil.smudge': `${leave('filter-smudge')}; cat`,
    'filter.evil.process': leave('filter-process'),
    'filter.evil.required': 'true',
    'diff.evil.textconv': `${leave('textconv')}; cat`,
    'diff.evil.command': `${leave('diff-command')}; true`,
    'diff.external': `${leave('diff-external')}; true`,
    'merge.evil.driver': leave('merge-driver'),
    'gpg.program': leave('gpg'),
    'log.showSignature': 'true',
    'core.sshCommand': leave('ssh'),
    'core.askPass': leave('askpass'),
    'credential.helper': `!${leave('credential')}`,
    'core.alternateRefsCommand': leave('alternate-refs'),
    'remote.origin.url': 'evil:repo',
    'remote.origin.fetch': '+refs/heads/*:refs/remotes/origin/*',
    'remote.origin.uploadpack': leave('uploadpack'),
    [`url.ext::sh -c touch% ${markerDir}/ext-insteadof.insteadOf`]: 'evil:',
    'protocol.ext.allow': 'always',
    'alias.st': `!${leave('alias')}`,
    'core.editor': leave('editor'),
    'sequence.editor': leave('sequence-editor'),
    'trailer.sign.command': leave('trailer'),
    'interactive.diffFilter': `${leave('diff-filter')}; cat`,
    'tar.evil.command': leave('tar'),
    'include.path': included,
  };
  for (const [key, value] of Object.entries(settings)) git(repo, 'config', key, value);
  writeFileSync(join(repo, 'a.txt'), 'hello\nchanged in the work tree\n');
  writeFileSync(join(repo, 'b.md'), '# title\nchanged\n');
}

const READ_ONLY_COMMANDS = [
  'status',
  'status -s',
  'diff',
  'diff --cached',
  'diff HEAD',
  'diff --stat',
  'log -p -2',
  'log --stat',
  'log',
  'log --show-signature -1',
  'show',
  'show HEAD:a.txt',
  'blame a.txt',
  'blame b.md',
  'grep -n hello',
  'ls-files',
  'cat-file -p HEAD:a.txt',
  'describe --always --dirty',
  'branch',
  'branch -a',
  'tag',
  'stash list',
  'shortlog -s HEAD',
  'rev-parse HEAD',
  'diff-files -p',
  'diff-index -p HEAD',
  'whatchanged -1',
  'annotate a.txt',
  'remote -v',
  'remote show -n origin',
  'diff-tree -p HEAD~0 --root',
  'st',
];

describe('a hostile repository', () => {
  beforeEach(makeHostile);

  it('really is hostile: at yolo its configuration runs programs', async () => {
    const agent = gitAgent(repo, 'yolo');
    for (const command of ['status', 'diff', 'log -p -1', 'blame b.md']) await agent.call('git', { command });
    expect(markers(markerDir)).toEqual(
      expect.arrayContaining(['fsmonitor', 'filter-process', 'included-textconv', 'hookspath-post-index-change']),
    );
  });

  it.each(['sandboxed', 'trusted'] as const)('runs nothing during read-only commands at %s', async (level) => {
    const agent = gitAgent(repo, level);
    const failed: string[] = [];
    for (const command of READ_ONLY_COMMANDS) {
      const result = await agent.call('git', { command });
      if (!result.success && command !== 'st' && command !== 'log --show-signature -1') failed.push(`${command}: ${result.error}`);
    }
    expect(markers(markerDir)).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('still shows real content (neutralised, not broken)', async () => {
    const agent = gitAgent(repo, 'sandboxed');
    expect((await agent.call('git', { command: 'diff' })).output).toContain('+changed in the work tree');
    expect((await agent.call('git', { command: 'show HEAD:a.txt' })).output).toBe('hello');
    expect(markers(markerDir)).toEqual([]);
  });

  it('refuses write commands at trusted, naming the settings', async () => {
    const agent = gitAgent(repo, 'trusted');
    for (const command of [
      'add a.txt',
      'commit -am x',
      'fetch origin',
      'pull',
      'push origin main',
      'checkout -b other',
      'merge main',
      'stash',
      'archive --format=tar.evil HEAD',
      'commit --trailer sign=x -m y --allow-empty',
    ]) {
      const result = await agent.call('git', { command });
      expect(result, command).toMatchObject({ kind: 'forbidden' });
      expect(result.error, command).toContain("This repository's own configuration sets");
      expect(result.error, command).toContain('filter.evil.clean');
    }
    expect(markers(markerDir)).toEqual([]);
  });
});

describe('repository hooks and transports', () => {
  it('runs no hooks below yolo, and does at yolo', async () => {
    installHooks(join(repo, '.git', 'hooks'), 'hook');
    const trusted = gitAgent(repo, 'trusted');
    expect(await trusted.call('git', { command: 'commit --allow-empty -m quiet' })).toMatchObject({ success: true });
    expect(await trusted.call('git', { command: 'switch -c other' })).toMatchObject({ success: true });
    expect(markers(markerDir)).toEqual([]);
    await gitAgent(repo, 'yolo').call('git', { command: 'commit --allow-empty -m loud' });
    expect(markers(markerDir)).toContain('hook-pre-commit');
  });

  it('never follows a configured URL rewrite to the ext:: transport below yolo', async () => {
    git(repo, 'config', 'remote.origin.url', 'evil:repo');
    git(repo, 'config', `url.ext::sh -c touch% ${markerDir}/ext.insteadOf`, 'evil:');
    git(repo, 'config', 'protocol.ext.allow', 'always');
    for (const command of ['fetch origin', 'ls-remote origin', 'pull origin main']) {
      expect((await gitAgent(repo, 'trusted').call('git', { command })).success, command).toBe(false);
    }
    expect(markers(markerDir)).toEqual([]);
    await gitAgent(repo, 'yolo').call('git', { command: 'fetch origin' });
    expect(markers(markerDir)).toEqual(['extrepo']);
  });
});

describe('option injection below yolo', () => {
  const outside = () => dir.join('outside');
  beforeEach(() => {
    createGitRepository(outside(), { files: { 'secret.txt': 'top secret\n' } });
  });

  it.each([
    ['-c "core.pager={touch}" log', '`-c`'],
    ['-c "alias.x=!{touch}" log', '`-c`'],
    ['--config-env=core.pager=HOME log', '`--config-env`'],
    ['--exec-path=/tmp log', '`--exec-path`'],
    ['-p log', '`-p`'],
    ['--paginate log', '`--paginate`'],
    ['--help', '`--help`'],
    ['log --help', '`--help`'],
    ['log --he', 'abbreviation of `--help`'],
    ['clone --upload-pack={touch} {outside} copy', '`--upload-pack`'],
    ['clone --upload-pa={touch} {outside} copy', 'abbreviation of `--upload-pack`'],
    ['clone -u {touch} {outside} copy', '`-u`'],
    ['clone -qu {touch} {outside} copy', '`-u`'],
    ['clone -c core.fsmonitor={touch} {outside} copy', '`-c`'],
    ['clone --config core.fsmonitor={touch} {outside} copy', '`--config`'],
    ['clone --template={outside} {outside} copy', '`--template`'],
    ['ls-remote --upload-pack={touch} {outside}', '`--upload-pack`'],
    ['ls-remote -u {touch} {outside}', '`-u`'],
    ['fetch --upload-pack={touch} {outside}', '`--upload-pack`'],
    ['fetch --upl={touch} {outside}', 'abbreviation'],
    ['pull --upload-pack={touch} {outside}', '`--upload-pack`'],
    ['push --receive-pack={touch} {outside} main', '`--receive-pack`'],
    ['push --rec={touch} {outside} main', 'abbreviation'],
    ['push --exec={touch} {outside} main', '`--exec`'],
    ['archive --remote={outside} --exec={touch} HEAD', '`--exec`'],
    ['fetch ext::sh%-c%{touch}', 'ext::'],
    ['fetch EXT::sh%-c%{touch}', 'ext::'],
    ['clone Ext::sh%-c%{touch} copy', 'ext::'],
    ['remote add evil fd::3', 'fd::'],
    ['push FD::7 main', 'fd::'],
    ['log --output={outside}/written', '`--output`'],
    ['diff --out={outside}/written', 'abbreviation of `--output`'],
    ['archive --output={outside}/a.tar HEAD', '`--output`'],
    ['archive -o {outside}/a.tar HEAD', '`-o`'],
    ['grep -O{touch} hello', '`-O`'],
    ['grep --open-files-in-pager hello', '`--open-files-in-pager`'],
    ['diff --ext-diff', '`--ext-diff`'],
    ['diff --ext', 'abbreviation of `--ext-diff`'],
    ['cat-file --textconv HEAD:a.txt', '`--textconv`'],
    ['cat-file --filters HEAD:a.txt', '`--filters`'],
    ['diff --no-index {outside}/secret.txt a.txt', '`--no-index`'],
    ['grep --no-index secret', '`--no-index`'],
    ['push --forc origin main', 'abbreviation of `--force`'],
  ])('refuses %j at sandboxed and trusted', async (template, reason) => {
    const command = template.replaceAll('{touch}', leave('injected')).replaceAll('{outside}', outside());
    for (const level of ['sandboxed', 'trusted'] as PermissionLevel[]) {
      const result = await gitAgent(repo, level, true).call('git', { command });
      expect(result.kind, `${level}: ${command}`).toBe('forbidden');
      if (level === 'trusted') expect(result.error).toContain(reason);
    }
    expect(markers(markerDir)).toEqual([]);
  });

  it.each([
    ['-C {outside} log', 'sandboxed'],
    ['-C .. status', 'sandboxed'],
    ['--git-dir={outside}/.git log', 'sandboxed'],
    ['--git-dir {outside}/.git log', 'sandboxed'],
    ['--work-tree=/ status', 'sandboxed'],
    ['blame --contents={outside}/secret.txt a.txt', 'sandboxed'],
    ['blame --contents {outside}/secret.txt a.txt', 'sandboxed'],
    ['diff {outside}/secret.txt a.txt', 'sandboxed'],
    ['ls-files --exclude-from={outside}/secret.txt -o -i', 'sandboxed'],
    ['log -- ../outside', 'sandboxed'],
    ['format-patch -o {outside}/patches HEAD~0 --root', 'trusted'],
    ['init {outside}/new', 'trusted'],
    ['clone {outside} {outside}/copy', 'trusted'],
    ['worktree add {outside}/tree', 'trusted'],
    ['-C {outside} commit --allow-empty -m x', 'trusted'],
  ])('keeps paths in the sandbox: %j at %s', async (template, level) => {
    const command = template.replaceAll('{outside}', outside());
    const result = await gitAgent(repo, level as PermissionLevel).call('git', { command });
    expect(result, command).toMatchObject({ kind: 'forbidden' });
    expect(result.output).not.toContain('top secret');
    expect(git(outside(), 'log', '--format=%s')).toBe('Initial commit\n');
  });

  it('accepts -C inside the sandbox and real options that look like prefixes', async () => {
    mkdirSync(join(repo, 'sub'));
    const agent = gitAgent(repo, 'sandboxed');
    expect(await agent.call('git', { command: '-C sub rev-parse --show-prefix' })).toMatchObject({ output: 'sub/' });
    expect(await agent.call('git', { command: 'diff --text HEAD' })).toMatchObject({ success: true });
    expect(await agent.call('git', { command: 'ls-files --exclude=*.md -o' })).toMatchObject({ success: true });
    expect(await agent.call('git', { command: 'log --author "/not/a/path" --format=%s' })).toMatchObject({ success: true });
  });
});

describe('repositories that point outside the sandbox', () => {
  let inside: string;
  let outside: string;
  beforeEach(() => {
    outside = createGitRepository(dir.join('outside'), { files: { 'secret.txt': 'top secret\n' } });
    inside = dir.join('inside');
    mkdirSync(inside);
  });

  it('refuses a .git file whose gitdir is outside', async () => {
    writeFileSync(join(inside, '.git'), `gitdir: ${outside}/.git\n`);
    const result = await gitAgent(inside, 'sandboxed').call('git', { command: 'log -p' });
    expect(result).toMatchObject({ kind: 'forbidden' });
    expect(result.output).not.toContain('top secret');
  });

  it('refuses core.worktree outside', async () => {
    createGitRepository(inside);
    git(inside, 'config', 'core.worktree', outside);
    expect(await gitAgent(inside, 'sandboxed').call('git', { command: 'grep secret' })).toMatchObject({ kind: 'forbidden' });
  });

  it('refuses object alternates outside', async () => {
    createGitRepository(inside);
    writeFileSync(join(inside, '.git', 'objects', 'info', 'alternates'), `${outside}/.git/objects\n`);
    expect(await gitAgent(inside, 'sandboxed').call('git', { command: 'status' })).toMatchObject({ kind: 'forbidden' });
  });
});

describe('inherited environment', () => {
  const planted: Record<string, string> = {};
  afterEach(() => {
    for (const name of Object.keys(planted)) delete process.env[name];
  });

  it('drops GIT_* variables of the host process', async () => {
    const outside = createGitRepository(dir.join('outside'), { files: { 'secret.txt': 'top secret\n' } });
    const external = dir.join('external.sh');
    writeScript(external, leave('git-external-diff'));
    Object.assign(planted, {
      GIT_DIR: join(outside, '.git'),
      GIT_WORK_TREE: outside,
      GIT_EXTERNAL_DIFF: external,
      GIT_CONFIG_PARAMETERS: `'core.pager'='${leave('config-parameters')}'`,
      GIT_SSH_COMMAND: leave('ssh-command'),
    });
    Object.assign(process.env, planted);
    writeFileSync(join(repo, 'a.txt'), 'changed\n');
    const agent = gitAgent(repo, 'yolo');
    const diff = await agent.call('git', { command: 'diff' });
    expect(diff.output).toContain('+changed');
    expect((await agent.call('git', { command: 'ls-files' })).output).not.toContain('secret.txt');
    expect(markers(markerDir)).toEqual([]);
  });
});
