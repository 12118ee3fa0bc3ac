import { createTestAgent, outputSchemaProblems } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, expect, it } from 'vitest';
import { execSkills } from './index.js';

let dir: TestDir | undefined;
afterEach(() => dir?.cleanup());

it("each command skill has a title and declares an outputSchema that its real run's data match", async () => {
  dir = await testdir();
  const agent = createTestAgent({ cwd: dir.path, preset: 'yolo', families: [execSkills] });
  const calls: [string, Record<string, unknown>][] = [
    ['bash_safe', { command: 'ls -a' }],
    ['shell_UNSAFE', { command: 'echo piped | tr a-z A-Z' }],
    ['run_python', { code: 'print(6 * 7)' }],
  ];
  expect(calls.map(([tool]) => tool).sort()).toEqual(execSkills.skills.map((spec) => spec.name).sort());
  for (const [tool, args] of calls) {
    expect(agent.registry.getSpec(tool)?.title, tool).toMatch(/^[A-Z]/);
    expect(await outputSchemaProblems(agent.registry, tool, await agent.call(tool, args)), tool).toEqual([]);
  }
});
