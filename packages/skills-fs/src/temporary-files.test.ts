import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { bundleChildScript, createWorkspace, type Workspace } from './workspace-fixture.js';

const originalStateHome = process.env.XDG_STATE_HOME;
let workspace: Workspace | undefined;
let writer: ChildProcess | undefined;
afterEach(async () => {
  writer?.kill('SIGKILL');
  writer = undefined;
  if (originalStateHome === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = originalStateHome;
  await workspace?.dir.cleanup();
  workspace = undefined;
});

/**
 * A child process that writes a file as write_file does — holding its edit lock, through a
 * temporary file — and stops half-way through the write, saying so, until it is killed.
 */
const WRITER_SOURCE = `
import { atomicWriteVerified, withFileLocks } from '@nexus/core';
const [target] = process.argv.slice(2);
await withFileLocks([target], () =>
  atomicWriteVerified(target, async (handle) => {
    await handle.write('half of the new content');
    process.stdout.write('writing\\n');
    // Hang there, alive: a pending promise alone would let the process exit, leaving its lock behind.
    await new Promise(() => setInterval(() => {}, 60_000));
  }),
);
`;

/** A workspace holding `tree`, with Nexus's state (where the locks live) in the test's own directory, for this process and the writer. */
async function createWritingWorkspace(tree: Record<string, string>): Promise<Workspace> {
  const created = await createWorkspace(tree);
  process.env.XDG_STATE_HOME = created.dir.join('state');
  return created;
}

/** Starts the writer on `name` in the working directory and waits until it is in the middle of the write. */
async function startWriter(name: string): Promise<ChildProcess> {
  const { dir } = workspace as Workspace;
  const script = await bundleChildScript(dir, 'writer', WRITER_SOURCE);
  writer = spawn(process.execPath, [script, dir.join('work', name)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(writer.stdout!, 'data');
  return writer;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Waits `ms`, or until `done()` holds: long enough for a write of a small file that nothing holds off. */
const waitWhile = async (ms: number, done: () => boolean) => {
  for (const end = performance.now() + ms; !done() && performance.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('a writer SIGKILLed in the middle of a write', () => {
  test('leaves a temporary file that says what it is, never a lock file, and the next write in the directory removes it', async () => {
    workspace = await createWritingWorkspace({ 'big.txt': 'old\n', 'other.txt': 'other\n' });
    const child = await startWriter('big.txt');
    await kill(child);
    const leftovers = (await readdir(workspace.work)).filter((name) => !['big.txt', 'other.txt'].includes(name));
    expect(leftovers).toEqual([expect.stringMatching(new RegExp(`^\\.big\\.txt\\.nexus-tmp-${child.pid}-[0-9a-f]{12}$`))]);

    const next = await workspace.call('write_file', { path: 'other.txt', content: 'next\n' });
    expect(next.success, next.error).toBe(true);
    expect((await readdir(workspace.work)).sort()).toEqual(['big.txt', 'other.txt']);
    expect(await readFile(workspace.dir.join('work', 'big.txt'), 'utf8')).toBe('old\n');
  });

  test('strands no lock: write_file of the file waits while it lives, goes ahead once it is killed, and the tree ends clean', async () => {
    workspace = await createWritingWorkspace({ 'notes.txt': 'old\n' });
    expect((await workspace.call('read_file', { path: 'notes.txt' })).success).toBe(true);
    const child = await startWriter('notes.txt');
    // The lock is held, and its file is not in the user's tree: killing the holder cannot strand it there.
    expect((await readdir(workspace.work)).filter((name) => name.includes('lock'))).toEqual([]);

    let finished = false;
    const write = workspace.call('write_file', { path: 'notes.txt', content: 'new\n' }).finally(() => (finished = true));
    // The write waits for the lock (it could only finish here if the lock did not hold).
    await waitWhile(500, () => finished);
    expect(finished).toBe(false);

    await kill(child);
    const written = await write;
    expect(written.success, written.error).toBe(true);
    expect(await readFile(workspace.dir.join('work', 'notes.txt'), 'utf8')).toBe('new\n');
    const again = await workspace.call('write_file', { path: 'notes.txt', content: 'newer\n' });
    expect(again.success, again.error).toBe(true);
    expect(await readdir(workspace.work)).toEqual(['notes.txt']);
    // The killed writer's lock was taken over and removed where it lived, too.
    expect(await readdir(workspace.dir.join('state', 'nexus', 'locks'))).toEqual([]);
  });
});
