import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestAgent, outputSchemaProblems } from '@nexus/registry/testing';
import { createGitRepository, git, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, expect, it } from 'vitest';
import { gitSkills } from './index.js';

let dir: TestDir | undefined;
afterEach(() => dir?.cleanup());

it("git declares a title and an outputSchema that its real results' data match, parsed or not", async () => {
  dir = await testdir();
  const upstream = createGitRepository(dir.join('upstream'), { files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
  const clone = dir.join('clone');
  git(dir.path, 'clone', '-q', upstream, clone);
  git(clone, 'checkout', '-q', '--detach');
  writeFileSync(join(clone, 'a.txt'), 'changed\n');
  renameSync(join(clone, 'b.txt'), join(clone, 'c.txt'));
  git(clone, 'add', '-A');
  writeFileSync(join(clone, 'new.txt'), 'new\n');
  const agent = createTestAgent({ cwd: clone, families: [gitSkills] });
  expect(agent.registry.getSpec('git')?.title).toBe('Git');
  for (const command of ['status', 'log -3', 'branch -a', 'diff --cached --stat', 'rev-parse HEAD']) {
    const result = await agent.call('git', { command });
    expect(await outputSchemaProblems(agent.registry, 'git', result), command).toEqual([]);
  }
  const empty = createTestAgent({ cwd: createGitRepository(dir.join('empty'), { files: {} }), families: [gitSkills] });
  expect(await outputSchemaProblems(empty.registry, 'git', await empty.call('git', { command: 'status' }))).toEqual([]);
});
