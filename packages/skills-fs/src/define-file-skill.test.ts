import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type ConfirmationRequest, ToolResult } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { testdir } from '@nexus/test-utils';
import { afterEach, expect, test } from 'vitest';
import { defineFileSkill, makeDirectories } from './kit.js';

/** A skill a plugin author might write with the kit: creates an empty file, and its directories. */
const touchSkill = defineFileSkill<{ path: string }>({
  name: 'touch',
  description: 'Create an empty file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  run: async ({ path }, files) => {
    const real = await files.paths.authorize(path, { access: 'write' });
    await makeDirectories(files, dirname(real));
    await writeFile(real, '', { flag: 'a' });
    return ToolResult.ok(`Touched ${await files.paths.display(real)}.`);
  },
});
const family = { name: 'touch', skills: [touchSkill] };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

test('a skill made with the kit is sandboxed under its own tool name and asks the confirm of each call', async () => {
  const dir = await testdir({ work: {}, outside: {}, extra: {} });
  cleanup = () => dir.cleanup();
  const agent = createTestAgent({ cwd: dir.join('work'), preset: 'trusted', families: [family], confirm: false });
  expect((await agent.call('touch', { path: 'a/b.txt' })).output).toBe('Touched a/b.txt.');

  const outside = dir.join('outside', 'c.txt');
  expect((await agent.call('touch', { path: outside })).kind).toBe('forbidden');
  const asked: string[] = [];
  const confirm = (request: ConfirmationRequest) => {
    asked.push(request.tool);
    return true;
  };
  const approved = await agent.call('touch', { path: outside }, { confirm });
  expect(approved.output).toBe(`Touched ${outside}.`);
  expect(asked).toEqual(['touch']);

  const ownRoots = createTestAgent({ cwd: dir.join('work'), families: [family], tools: { touch: { allowedPaths: [dir.join('extra')] } } });
  expect((await ownRoots.call('touch', { path: dir.join('extra', 'd.txt') })).success).toBe(true);
  expect((await ownRoots.call('touch', { path: 'e.txt' })).kind).toBe('forbidden');
});
