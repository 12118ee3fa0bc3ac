import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionLevel } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { createGitRepository, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseGitArguments } from './git-arguments.js';
import { gitSkills } from './index.js';

// Every module of the skill gets the real parser, wrapped so the test can count its calls.
vi.mock('./git-arguments.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./git-arguments.js')>();
  return { ...actual, parseGitArguments: vi.fn(actual.parseGitArguments) };
});

let dir: TestDir;
let repo: string;
beforeEach(async () => {
  dir = await testdir();
  repo = createGitRepository(dir.join('repo'));
  writeFileSync(join(repo, 'a.txt'), 'hello\nchanged\n');
});
afterEach(async () => {
  await dir.cleanup();
});

describe('the git skill parses a command line once per call', () => {
  it.each<[PermissionLevel, string, boolean]>([
    ['sandboxed', 'status', true],
    ['sandboxed', '-C . log -1', true],
    ['sandboxed', 'branch', true],
    ['sandboxed', 'commit -am x', false],
    ['trusted', 'status', true],
    ['trusted', 'branch -a', true],
    ['trusted', 'commit -am x', true],
    ['trusted', 'reset --hard', false],
    ['trusted', 'log --output=/tmp/x', false],
    ['yolo', 'status', true],
    ['yolo', 'reset --hard', true],
  ])('at %s: %s', async (preset, command, succeeds) => {
    const agent = createTestAgent({ cwd: repo, preset, families: [gitSkills] });
    vi.mocked(parseGitArguments).mockClear();
    const result = await agent.call('git', { command });
    expect(result.success, result.error).toBe(succeeds);
    expect(vi.mocked(parseGitArguments)).toHaveBeenCalledTimes(1);
  });
});
