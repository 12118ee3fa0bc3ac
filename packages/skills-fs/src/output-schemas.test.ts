import { symlink } from 'node:fs/promises';
import { outputSchemaProblems } from '@nexus/registry/testing';
import { afterEach, expect, test } from 'vitest';
import { fsSkills } from './index.js';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

const READS = ['read_file', 'tail', 'file_info', 'list_directory', 'glob', 'grep'];

let workspace: Workspace | undefined;
afterEach(() => workspace?.dir.cleanup());

test('every file skill has a title, and the reads and mkdir are idempotent', () => {
  for (const spec of fsSkills.skills) {
    expect(spec.title, spec.name).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
    expect(spec.idempotent === true, spec.name).toBe([...READS, 'mkdir'].includes(spec.name));
    expect(spec.openWorld, spec.name).toBeUndefined();
  }
});

test("file_info and list_directory declare an outputSchema that their real results' data match", async () => {
  workspace = await createWorkspace({ 'a.txt': 'alpha\n', docs: { 'b.md': '# b\n', '.hidden': '' } });
  await symlink('a.txt', workspace.dir.join('work', 'link'));
  const calls: [string, Record<string, unknown>][] = [
    ['file_info', { path: 'a.txt' }],
    ['file_info', { path: 'docs' }],
    ['file_info', { path: 'link' }],
    ['list_directory', {}],
    ['list_directory', { path: 'docs', all: true, long: true }],
  ];
  for (const [tool, args] of calls) {
    const result = await workspace.call(tool, args);
    expect(await outputSchemaProblems(workspace.registry, tool, result), `${tool} ${JSON.stringify(args)}`).toEqual([]);
  }
});
