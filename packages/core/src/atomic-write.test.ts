import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { testdir } from '@nexus/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { atomicWriteBytes } from './atomic-write.js';

const coreDist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const SIZE = 8 * 1024 * 1024;

// The child writes versions 1, 2, 3 … of an 8 MiB file, each filled with one byte value, forever.
const writerSource = `
import { atomicWriteVerified } from ${JSON.stringify(coreDist)};
const [target, size] = [process.argv[2], Number(process.argv[3])];
for (let version = 1; ; version++) {
  await atomicWriteVerified(target, Buffer.alloc(size, version % 250 + 1));
  process.stdout.write('.');
}
`;

describe('atomicWriteVerified under SIGKILL', () => {
  beforeAll(() => {
    if (!existsSync(coreDist)) execFileSync('npx', ['tsup'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'ignore' });
  });

  it('leaves the complete old or the complete new content, and the mode, whenever the writer dies', async () => {
    await using dir = await testdir();
    const target = dir.join('data.bin');
    const writer = dir.join('writer.mjs');
    await writeFile(writer, writerSource);
    await writeFile(target, Buffer.alloc(SIZE, 0));
    await chmod(target, 0o640);

    const rounds = 25;
    let completedWrites = 0;
    for (let round = 0; round < rounds; round++) {
      const child = spawn(process.execPath, [writer, target, String(SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let dots = 0;
      child.stdout.on('data', (chunk: Buffer) => (dots += chunk.length));
      // Wait for the process to get going, then kill it at a random moment of a write.
      await new Promise((resolve) => setTimeout(resolve, 80 + Math.random() * 120));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
      completedWrites += dots;

      const content = await readFile(target);
      expect(content.length).toBe(SIZE);
      const first = content[0] as number;
      expect(content.every((byte) => byte === first)).toBe(true);
      expect((await stat(target)).mode & 0o777).toBe(0o640);
    }
    // The kills must have interrupted real writes, not an idle process.
    expect(completedWrites).toBeGreaterThan(0);
  });
});

describe('atomicWriteBytes', () => {
  it('creates a new file with the default mode and replaces an existing one keeping its mode', async () => {
    await using dir = await testdir({ 'script.sh': { content: '#!/bin/sh\necho old\n', mode: 0o755 } });
    await atomicWriteBytes(dir.join('script.sh'), Buffer.from('#!/bin/sh\necho new\n'));
    expect(await readFile(dir.join('script.sh'), 'utf8')).toContain('new');
    expect((await stat(dir.join('script.sh'))).mode & 0o777).toBe(0o755);
    await atomicWriteBytes(dir.join('fresh.txt'), Buffer.from('héllo'));
    expect(await readFile(dir.join('fresh.txt'), 'utf8')).toBe('héllo');
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    await using dir = await testdir({ 'outside.txt': 'keep', 'link.txt': { symlink: 'outside.txt' } });
    await atomicWriteBytes(dir.join('link.txt'), Buffer.from('new'));
    expect(await readFile(dir.join('outside.txt'), 'utf8')).toBe('keep');
    expect(await readFile(dir.join('link.txt'), 'utf8')).toBe('new');
  });

  it('leaves the target and no temporary file behind when the write fails', async () => {
    await using dir = await testdir({ 'a.txt': 'old' });
    await expect(atomicWriteBytes(dir.join('missing-dir', 'a.txt'), Buffer.from('x'))).rejects.toThrow();
    expect(await readdir(dir.path)).toEqual(['a.txt']);
  });
});
