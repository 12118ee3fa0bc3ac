import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { bundleChildScript, createWorkspace, type Workspace } from './test-helpers.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

/** A child process that writes a 16 MB file with write_file over and over, until it is killed. */
const WRITER_SOURCE = `
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { writeFileSkill } from '@nexus/skills-fs';
const [cwd] = process.argv.slice(2);
const services = new ServiceContainer().register('cwd', cwd).register('permissions', resolvePreset('sandboxed', { cwd }));
const skill = writeFileSkill.factory(services);
const content = 'x'.repeat(16 * 1000 * 1000);
for (let round = 0; ; round++) {
  process.stdout.write('writing\\n');
  const result = await skill.execute({ path: 'big.txt', content: round % 2 ? content : content.replace('x', 'y') });
  if (!result.success) throw new Error(result.error);
}
`;

describe('temporary files of atomic writes', () => {
  test('a write killed mid-way leaves a temporary file that says what it is, and the next write in the directory removes it', async () => {
    workspace = await createWorkspace({ 'other.txt': 'other\n' });
    const script = await bundleChildScript(workspace.dir, 'writer', WRITER_SOURCE);
    let leftovers: string[] = [];
    for (let attempt = 0; attempt < 20 && leftovers.length === 0; attempt++) {
      const child = spawn(process.execPath, [script, workspace.work], { stdio: ['ignore', 'pipe', 'inherit'] });
      const starts: number[] = [];
      child.stdout.on('data', (chunk: Buffer) => {
        for (const _ of chunk.toString().matchAll(/writing/g)) starts.push(performance.now());
      });
      // Kill it at a random moment of its third write, which takes about as long as the second (the first has nothing to compare).
      while (starts.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      const [, second = 0, third = 0] = starts;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * (third - second)));
      child.kill('SIGKILL');
      await once(child, 'exit');
      leftovers = (await readdir(workspace.work)).filter((name) => !['big.txt', 'other.txt'].includes(name));
    }
    expect(leftovers.length, 'no kill landed in the middle of a write').toBeGreaterThan(0);
    for (const name of leftovers) expect(name).toMatch(/^\.big\.txt\.nexus-(tmp-\d+-[0-9a-f]{12}|lock)$/);

    const next = await workspace.call('write_file', { path: 'other.txt', content: 'next\n' });
    expect(next.success, next.error).toBe(true);
    expect(await readdir(workspace.work)).toEqual(['big.txt', 'other.txt']);
  });
});
