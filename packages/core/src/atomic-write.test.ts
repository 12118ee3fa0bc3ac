import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, lstat, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { testdir } from '@nexus/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { atomicWriteBytes } from './atomic-write.js';
import { atomicWriteVerified } from './index.js';

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

    for (let round = 0; round < 25; round++) {
      const child = spawn(process.execPath, [writer, target, String(SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] });
      // Once the writer has finished a write (however long a busy machine takes to start it), kill
      // it at a random moment of the writes that follow.
      await new Promise((resolve) => child.stdout.once('data', resolve));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 120));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));

      const content = await readFile(target);
      expect(content.length).toBe(SIZE);
      const first = content[0] as number;
      expect(content.every((byte) => byte === first)).toBe(true);
      expect((await stat(target)).mode & 0o777).toBe(0o640);
    }
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

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('atomicWriteVerified', () => {
  it('writes through a temporary file named for what it is: .<name>.nexus-tmp-<pid>-<random>', async () => {
    await using dir = await testdir({ 'a.txt': 'old' });
    let during: string[] = [];
    await atomicWriteVerified(dir.join('a.txt'), Buffer.from('new'), {
      checkTarget: async () => {
        during = await readdir(dir.path);
      },
    });
    expect(during.sort()).toEqual([expect.stringMatching(new RegExp(`^\\.a\\.txt\\.nexus-tmp-${process.pid}-[0-9a-f]{12}$`)), 'a.txt']);
    expect(await readdir(dir.path)).toEqual(['a.txt']);
    expect(await readFile(dir.join('a.txt'), 'utf8')).toBe('new');
  });

  it('leaves the target as it was when checkTarget throws (compare-and-swap), and removes the temporary file', async () => {
    await using dir = await testdir({ 'a.txt': 'old' });
    const conflict = new Error('changed meanwhile');
    await expect(
      atomicWriteVerified(dir.join('a.txt'), Buffer.from('new'), {
        checkTarget: () => {
          throw conflict;
        },
      }),
    ).rejects.toBe(conflict);
    expect(await readFile(dir.join('a.txt'), 'utf8')).toBe('old');
    expect(await readdir(dir.path)).toEqual(['a.txt']);
  });

  it('writes content given as a function of the temporary file, and never replaces an existing file when exclusive', async () => {
    await using dir = await testdir({ 'taken.txt': 'keep' });
    await atomicWriteVerified(dir.join('new.txt'), (handle) => handle.writeFile('written'), { exclusive: true });
    expect(await readFile(dir.join('new.txt'), 'utf8')).toBe('written');
    await expect(atomicWriteVerified(dir.join('taken.txt'), Buffer.from('x'), { exclusive: true })).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(await readFile(dir.join('taken.txt'), 'utf8')).toBe('keep');
    expect((await readdir(dir.path)).sort()).toEqual(['new.txt', 'taken.txt']);
  });

  it('replaces only regular files: a FIFO stays a FIFO, also one that appears during the write', async () => {
    await using dir = await testdir({ 'a.txt': 'old' });
    execFileSync('mkfifo', [dir.join('fifo')]);
    await expect(atomicWriteVerified(dir.join('fifo'), Buffer.from('x'))).rejects.toMatchObject({
      kind: 'forbidden',
      message: expect.stringContaining('it is a FIFO, not a regular file'),
    });
    expect((await lstat(dir.join('fifo'))).isFIFO()).toBe(true);
    const swapped = atomicWriteVerified(dir.join('a.txt'), async (handle) => {
      await rm(dir.join('a.txt'));
      execFileSync('mkfifo', [dir.join('a.txt')]);
      await handle.writeFile('new');
    });
    await expect(swapped).rejects.toMatchObject({ kind: 'forbidden' });
    expect((await lstat(dir.join('a.txt'))).isFIFO()).toBe(true);
    expect((await readdir(dir.path)).sort()).toEqual(['a.txt', 'fifo']);
  });

  it('removes temporary and lock files that writers which died left in the directory, and nothing else', async () => {
    const dead = await deadPid();
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    const live = sleeper.pid as number;
    try {
      await using dir = await testdir({
        [`.gone.bin.nexus-tmp-${dead}-0123456789ab`]: 'killed mid-way',
        [`.old.bin.nexus-tmp-${live}-0123456789ab`]: 'abandoned an hour ago',
        [`.busy.bin.nexus-tmp-${live}-0123456789ab`]: 'being written',
        [`.mine.bin.nexus-tmp-${process.pid}-0123456789ab`]: 'being written by this process',
        '.gone.bin.nexus-lock': `${dead} ${hostname()} x\n`,
        '.busy.bin.nexus-lock': `${live} ${hostname()} x\n`,
        '.notes.txt.tmp': 'not ours',
        'a.txt': 'old',
      });
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(dir.join(`.old.bin.nexus-tmp-${live}-0123456789ab`), hourAgo, hourAgo);
      await atomicWriteVerified(dir.join('a.txt'), Buffer.from('new'));
      expect((await readdir(dir.path)).sort()).toEqual(
        [
          '.busy.bin.nexus-lock',
          `.busy.bin.nexus-tmp-${live}-0123456789ab`,
          `.mine.bin.nexus-tmp-${process.pid}-0123456789ab`,
          '.notes.txt.tmp',
          'a.txt',
        ].sort(),
      );
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
