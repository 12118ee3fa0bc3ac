import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, rm, symlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { withFileLocks } from './index.js';

let dir: TestDir | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await dir?.cleanup();
  dir = undefined;
});

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
  test('a lock name planted by a hostile repository (link to a device, link outside, a pipe) neither hangs, floods nor reaches through', async () => {
    dir = await testdir({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', outside: { 'keep.txt': 'keep\n' } });
    await symlink('/dev/zero', dir.join('.a.txt.nexus-lock'));
    await symlink(dir.join('outside', 'keep.txt'), dir.join('.b.txt.nexus-lock'));
    execFileSync('mkfifo', [dir.join('.c.txt.nexus-lock')]);
    const held: string[] = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await withFileLocks([dir.join(name)], async () => void held.push(name));
    expect(held).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await readFile(dir.join('outside', 'keep.txt'), 'utf8')).toBe('keep\n');
    expect((await readdir(dir.path)).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'outside']);
  });

  test('holders of one path take turns in the order they came; holders of other paths do not wait', async () => {
    dir = await testdir({ 'a.txt': 'a', 'b.txt': 'b' });
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

  test('holds a lock file beside the file while held and removes it afterwards', async () => {
    dir = await testdir({ 'a.txt': 'a' });
    const seen = await withFileLocks([dir.join('a.txt')], () => readdir((dir as TestDir).path));
    expect(seen.sort()).toEqual(['.a.txt.nexus-lock', 'a.txt']);
    expect(await readdir(dir.path)).toEqual(['a.txt']);
  });

  test('waits while another running process holds the lock file, and goes ahead once it is released', async () => {
    dir = await testdir({ 'a.txt': 'a', '.a.txt.nexus-lock': `${livePid()} ${hostname()} other\n` });
    let entered = false;
    const held = withFileLocks([dir.join('a.txt')], async () => {
      entered = true;
    });
    for (let index = 0; index < 20; index++) await tick();
    expect(entered).toBe(false);
    await rm(dir.join('.a.txt.nexus-lock'));
    await held;
    expect(entered).toBe(true);
    expect(await readdir(dir.path)).toEqual(['a.txt']);
  });

  test('takes over a lock file whose process has died', async () => {
    dir = await testdir({ 'a.txt': 'a', '.a.txt.nexus-lock': `${await deadPid()} ${hostname()} other\n` });
    expect(await withFileLocks([dir.join('a.txt')], async () => 'mine')).toBe('mine');
    expect(await readdir(dir.path)).toEqual(['a.txt']);
  });

  test('stops waiting when the signal aborts, and leaves the other process its lock', async () => {
    const content = `${livePid()} ${hostname()} other\n`;
    dir = await testdir({ 'a.txt': 'a', '.a.txt.nexus-lock': content });
    const controller = new AbortController();
    const held = withFileLocks([dir.join('a.txt')], async () => 'never', { signal: controller.signal });
    await tick();
    controller.abort();
    await expect(held).rejects.toMatchObject({ kind: 'cancelled' });
    expect((await readdir(dir.path)).sort()).toEqual(['.a.txt.nexus-lock', 'a.txt']);
  });

  test('in a directory where no lock file can be made, locks within the process', async () => {
    dir = await testdir({ 'a.txt': 'a' });
    const missing = dir.join('missing', 'a.txt');
    expect(await withFileLocks([missing], async () => 'ok')).toBe('ok');
  });
});
