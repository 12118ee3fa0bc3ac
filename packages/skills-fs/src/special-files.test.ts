import { execFileSync } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const isRoot = process.getuid?.() === 0;

/** A FIFO, a socket and (as root) a character device like /dev/null, in work/; the names of those that could be made. */
async function makeSpecialFiles(work: Workspace): Promise<string[]> {
  execFileSync('mkfifo', [work.dir.join('work', 'fifo')]);
  server = createServer();
  await new Promise<void>((resolve) => server?.listen(work.dir.join('work', 'socket'), resolve));
  const names = ['fifo', 'socket'];
  if (isRoot) {
    execFileSync('mknod', [work.dir.join('work', 'null'), 'c', '1', '3']);
    names.push('null');
  }
  return names;
}

const kindOf = async (path: string) => {
  const stats = await lstat(path);
  return stats.isFIFO() ? 'fifo' : stats.isSocket() ? 'socket' : stats.isCharacterDevice() ? 'device' : stats.isFile() ? 'file' : 'other';
};

describe('writes target regular files only', () => {
  test('write_file, copy_file and rename with overwrite never replace a FIFO, a socket or a device node', async () => {
    workspace = await createWorkspace({ 'source.txt': 'data\n' }, { preset: 'yolo' });
    const names = await makeSpecialFiles(workspace);
    for (const name of names) {
      const path = workspace.dir.join('work', name);
      const before = await kindOf(path);
      const written = await workspace.call('write_file', { path: name, content: 'x' });
      expect(written.kind, `write_file over ${name}`).toBe('invalid_input');
      expect(written.error).toContain('`path`');
      expect(written.error).toContain('not a regular file');
      const copied = await workspace.call('copy_file', { source: 'source.txt', destination: name, overwrite: true });
      expect(copied.kind, `copy_file over ${name}`).toBe('invalid_input');
      expect(copied.error).toContain('`destination`');
      const moved = await workspace.call('rename', { source: 'source.txt', destination: name, overwrite: true });
      expect(moved.kind, `rename over ${name}`).toBe('invalid_input');
      expect(await kindOf(path)).toBe(before);
    }
    expect(await kindOf(workspace.dir.join('work', 'source.txt'))).toBe('file');
  });

  // As root the device node made in work/ above stands in for /dev/null, so a broken check cannot replace the host's /dev/null.
  test.skipIf(isRoot)('at yolo, /dev/null stays a device', async () => {
    workspace = await createWorkspace({ 'source.txt': 'data\n' }, { preset: 'yolo' });
    expect((await workspace.call('write_file', { path: '/dev/null', content: 'x' })).kind).toBe('invalid_input');
    expect((await workspace.call('copy_file', { source: 'source.txt', destination: '/dev/null', overwrite: true })).kind).toBe(
      'invalid_input',
    );
    expect(await kindOf('/dev/null')).toBe('device');
  });
});
