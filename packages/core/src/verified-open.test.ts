import { execFileSync, spawn } from 'node:child_process';
import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { atomicWriteVerified, openVerified, openVerifiedDirectory, openVerifiedSync, withVerifiedDirectory } from './index.js';

let dir: TestDir | undefined;
afterEach(async () => {
  await dir?.cleanup();
  dir = undefined;
});

/** Both verified opens, reduced to "open, read the whole file as text, close". */
const verifiedReads = {
  openVerified: async (path: string) => {
    const handle = await openVerified(path);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  },
  openVerifiedSync: async (path: string) => {
    const fd = openVerifiedSync(path);
    try {
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  },
};

describe.each(Object.entries(verifiedReads))('%s', (_name, readVerified) => {
  test('opens the approved file and refuses it once swapped for a symlink', async () => {
    dir = await testdir({ inside: { 'f.txt': 'inside' }, outside: { 's.txt': 'secret' } });
    const approved = dir.join('inside', 'f.txt');
    expect(await readVerified(approved)).toBe('inside');
    await rm(approved);
    await symlink(dir.join('outside', 's.txt'), approved);
    await expect(readVerified(approved)).rejects.toMatchObject({
      kind: 'forbidden',
      message: expect.stringContaining('became a symbolic link'),
    });
  });

  test('refuses a file whose parent directory was swapped for a symlink', async () => {
    dir = await testdir({ inside: { sub: { 'f.txt': 'inside' } }, outside: { 'f.txt': 'secret' } });
    const approved = dir.join('inside', 'sub', 'f.txt');
    await rename(dir.join('inside', 'sub'), dir.join('inside', 'old'));
    await symlink(dir.join('outside'), dir.join('inside', 'sub'));
    await expect(readVerified(approved)).rejects.toMatchObject({
      kind: 'forbidden',
      message: expect.stringContaining('changed after it was checked'),
    });
    await rm(dir.join('outside', 'f.txt'));
    await expect(readVerified(approved)).rejects.toMatchObject({
      kind: 'forbidden',
      message: expect.stringContaining('parent directory became a symbolic link'),
    });
  });

  test('a missing file is a plain ENOENT, not a security error', async () => {
    dir = await testdir({ inside: {} });
    await expect(readVerified(dir.join('inside', 'gone.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

test('openVerifiedSync opens a FIFO without waiting for a writer', async () => {
  dir = await testdir({});
  const fifo = dir.join('fifo');
  execFileSync('mkfifo', [fifo]);
  // Should the open ever wait for a writer, this one comes after a while and writes, so the test
  // fails (reading finds its words) instead of hanging.
  const writer = spawn('sh', ['-c', 'sleep 30; echo late > "$1"', 'writer', fifo], { stdio: 'ignore' });
  try {
    const fd = openVerifiedSync(fifo);
    try {
      expect(fstatSync(fd).isFIFO()).toBe(true);
      expect(readFileSync(fd, 'utf8')).toBe('');
    } finally {
      closeSync(fd);
    }
  } finally {
    writer.kill();
  }
});

test('a verified directory pins its entries: a later swap of the directory cannot redirect writes', async () => {
  dir = await testdir({ inside: { target: {} }, outside: {} });
  const approved = dir.join('inside', 'target');
  await withVerifiedDirectory(approved, async (directory) => {
    await rename(approved, dir!.join('inside', 'moved'));
    await symlink(dir!.join('outside'), approved);
    await writeFile(directory.entry('new.txt'), 'written');
  });
  expect(await readFile(dir.join('inside', 'moved', 'new.txt'), 'utf8')).toBe('written');
  await expect(readFile(dir.join('outside', 'new.txt'))).rejects.toThrow();
  const directory = await openVerifiedDirectory(dir.join('inside', 'moved'));
  expect(directory.path).toBe(dir.join('inside', 'moved'));
  await directory.close();
  await expect(openVerifiedDirectory(dir.join('inside', 'target'))).rejects.toMatchObject({ kind: 'forbidden' });
});

test('atomicWriteVerified writes through the verified parent and refuses a planted symlink', async () => {
  dir = await testdir({ inside: { 'f.txt': 'old' }, outside: { 's.txt': 'secret' } });
  const approved = dir.join('inside', 'f.txt');
  const stats = await atomicWriteVerified(approved, Buffer.from('new'));
  expect(stats?.size).toBe(3);
  expect(await readFile(approved, 'utf8')).toBe('new');
  await rm(approved);
  await symlink(dir.join('outside', 's.txt'), approved);
  await expect(atomicWriteVerified(approved, Buffer.from('attack'))).rejects.toMatchObject({ kind: 'forbidden' });
  expect(await readFile(dir.join('outside', 's.txt'), 'utf8')).toBe('secret');
  await rm(approved);
  await rename(dir.join('inside'), dir.join('moved'));
  await symlink(dir.join('outside'), dir.join('inside'));
  await expect(atomicWriteVerified(dir.join('inside', 's.txt'), Buffer.from('attack'))).rejects.toMatchObject({ kind: 'forbidden' });
  expect(await readFile(dir.join('outside', 's.txt'), 'utf8')).toBe('secret');
});
