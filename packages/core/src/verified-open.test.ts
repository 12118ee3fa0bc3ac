import { readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { afterEach, expect, test } from 'vitest';
import { testdir, type TestDir } from '@nexus/test-utils';
import { atomicWriteVerified, openVerified, openVerifiedDirectory, withVerifiedDirectory } from './index.js';

let dir: TestDir | undefined;
afterEach(async () => {
  await dir?.cleanup();
  dir = undefined;
});

test('opens the approved file and refuses it once swapped for a symlink', async () => {
  dir = await testdir({ inside: { 'f.txt': 'inside' }, outside: { 's.txt': 'secret' } });
  const approved = dir.join('inside', 'f.txt');
  const handle = await openVerified(approved);
  expect(await handle.readFile('utf8')).toBe('inside');
  await handle.close();
  await rm(approved);
  await symlink(dir.join('outside', 's.txt'), approved);
  await expect(openVerified(approved)).rejects.toMatchObject({ kind: 'forbidden', message: expect.stringContaining('became a symbolic link') });
});

test('refuses a file whose parent directory was swapped for a symlink', async () => {
  dir = await testdir({ inside: { sub: { 'f.txt': 'inside' } }, outside: { 'f.txt': 'secret' } });
  const approved = dir.join('inside', 'sub', 'f.txt');
  await rename(dir.join('inside', 'sub'), dir.join('inside', 'old'));
  await symlink(dir.join('outside'), dir.join('inside', 'sub'));
  await expect(openVerified(approved)).rejects.toMatchObject({ kind: 'forbidden', message: expect.stringContaining('changed after it was checked') });
  await rm(dir.join('outside', 'f.txt'));
  await expect(openVerified(approved)).rejects.toMatchObject({ kind: 'forbidden', message: expect.stringContaining('parent directory became a symbolic link') });
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
