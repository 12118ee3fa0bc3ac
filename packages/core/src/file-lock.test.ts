import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type TestDir, type Tree, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { withFileLocks } from './index.js';

let dir: TestDir | undefined;
const children: ChildProcess[] = [];
const originalStateHome = process.env.XDG_STATE_HOME;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (originalStateHome === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = originalStateHome;
  await dir?.cleanup();
  dir = undefined;
});

/** A test directory holding `tree` and `state/`, Nexus's state directory for the test (where locks live). */
async function withState(tree: Tree): Promise<TestDir> {
  const created = await testdir({ ...tree, state: {} });
  process.env.XDG_STATE_HOME = created.join('state');
  await mkdir(locksOf(created), { recursive: true });
  return created;
}

const locksOf = (test: TestDir) => test.join('state', 'nexus', 'locks');

/** Where the lock file of `path` is: `.<SHA-256 of the path>.nexus-lock` in the state directory's `locks/`. */
const lockFileOf = (test: TestDir, path: string) => join(locksOf(test), `.${createHash('sha256').update(path).digest('hex')}.nexus-lock`);

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await once(child, 'exit');
  return child.pid as number;
}

function livePid(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}

describe('withFileLocks', () => {
  test('a lock name planted in the lock directory (link to a device, link outside, a pipe) neither hangs, floods nor reaches through', async () => {
    dir = await withState({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', outside: { 'keep.txt': 'keep\n' } });
    await symlink('/dev/zero', lockFileOf(dir, dir.join('a.txt')));
    await symlink(dir.join('outside', 'keep.txt'), lockFileOf(dir, dir.join('b.txt')));
    execFileSync('mkfifo', [lockFileOf(dir, dir.join('c.txt'))]);
    const held: string[] = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await withFileLocks([dir.join(name)], async () => void held.push(name));
    expect(held).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await readFile(dir.join('outside', 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(await readdir(locksOf(dir))).toEqual([]);
  });

  test('links planted in the lock directory under lock names (to a directory, to a file) are removed, never what they lead to', async () => {
    dir = await withState({ 'a.txt': 'a', outside: { 'keep.txt': 'keep\n' } });
    await symlink(dir.join('outside'), lockFileOf(dir, dir.join('a.txt')));
    await symlink(dir.join('outside', 'keep.txt'), join(locksOf(dir), '.planted.nexus-lock'));
    expect(await withFileLocks([dir.join('a.txt')], async () => 'held')).toBe('held');
    expect(await readdir(locksOf(dir))).toEqual([]);
    expect(await readdir(dir.join('outside'))).toEqual(['keep.txt']);
    expect(await readFile(dir.join('outside', 'keep.txt'), 'utf8')).toBe('keep\n');
  });

  test('holders of one path take turns in the order they came; holders of other paths do not wait', async () => {
    dir = await withState({ 'a.txt': 'a', 'b.txt': 'b' });
    const a = dir.join('a.txt');
    const order: string[] = [];
    let active = 0;
    let most = 0;
    const hold = (name: string) =>
      withFileLocks([a], async () => {
        most = Math.max(most, ++active);
        order.push(name);
        for (let index = 0; index < 3; index++) await tick();
        active--;
      });
    await Promise.all(['first', 'second', 'third', 'fourth'].map(hold));
    expect(most).toBe(1);
    expect(order).toEqual(['first', 'second', 'third', 'fourth']);

    // Holding a.txt, a lock of b.txt is granted at once (this would never finish if it waited for a.txt).
    const b = (dir as TestDir).join('b.txt');
    await withFileLocks([a], () => withFileLocks([b], async () => 'inside'));
  });

  test('holds its lock file in the state directory while held, never in the user’s tree, and removes it afterwards', async () => {
    dir = await withState({ work: { 'a.txt': 'a' } });
    const test = dir;
    const seen = await withFileLocks([dir.join('work', 'a.txt')], async () => ({
      work: await readdir(test.join('work')),
      locks: await readdir(locksOf(test)),
    }));
    expect(seen).toEqual({ work: ['a.txt'], locks: [expect.stringMatching(/^\.[0-9a-f]{64}\.nexus-lock$/)] });
    expect(await readdir(locksOf(dir))).toEqual([]);
  });

  test('waits while another running process holds the lock file, and goes ahead once it is released', async () => {
    dir = await withState({ 'a.txt': 'a' });
    const lock = lockFileOf(dir, dir.join('a.txt'));
    await writeFile(lock, `${livePid()} ${hostname()} other\n`);
    let entered = false;
    const held = withFileLocks([dir.join('a.txt')], async () => {
      entered = true;
    });
    for (let index = 0; index < 20; index++) await tick();
    expect(entered).toBe(false);
    await rm(lock);
    await held;
    expect(entered).toBe(true);
    expect(await readdir(locksOf(dir))).toEqual([]);
  });

  test('takes over a lock file whose process has died', async () => {
    dir = await withState({ 'a.txt': 'a' });
    await writeFile(lockFileOf(dir, dir.join('a.txt')), `${await deadPid()} ${hostname()} other\n`);
    expect(await withFileLocks([dir.join('a.txt')], async () => 'mine')).toBe('mine');
    expect(await readdir(locksOf(dir))).toEqual([]);
  });

  test('stops waiting when the signal aborts, and leaves the other process its lock', async () => {
    dir = await withState({ 'a.txt': 'a' });
    const lock = lockFileOf(dir, dir.join('a.txt'));
    await writeFile(lock, `${livePid()} ${hostname()} other\n`);
    const controller = new AbortController();
    const held = withFileLocks([dir.join('a.txt')], async () => 'never', { signal: controller.signal });
    await tick();
    controller.abort();
    await expect(held).rejects.toMatchObject({ kind: 'cancelled' });
    expect(await readdir(locksOf(dir))).toEqual([lock.split('/').pop()]);
  });

  test('makes the lock directory again when it was removed since the last lock, and keeps locking across processes', async () => {
    dir = await withState({ 'a.txt': 'a' });
    const test = dir;
    const locks = () => readdir(locksOf(test));
    expect(await withFileLocks([dir.join('a.txt')], locks)).toHaveLength(1);
    await rm(dir.join('state'), { recursive: true });
    expect(await withFileLocks([dir.join('a.txt')], locks)).toEqual([lockFileOf(dir, dir.join('a.txt')).split('/').pop()]);
    expect(await locks()).toEqual([]);
  });

  test('where the state directory cannot be made, locks within the process', async () => {
    dir = await withState({ 'a.txt': 'a' });
    process.env.XDG_STATE_HOME = dir.join('a.txt', 'state');
    expect(await withFileLocks([dir.join('a.txt')], async () => 'ok')).toBe('ok');
    expect(await readdir(dir.path)).toEqual(['a.txt', 'state']);
  });
});
