import { appendFile, readFile, utimes } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { InMemoryReadTracker } from './index.js';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const WRITES: [string, Record<string, unknown>][] = [
  ['write_file', { path: 'f.txt', content: 'new\n' }],
  ['edit_file', { path: 'f.txt', old_string: 'old', new_string: 'new' }],
  ['edit_lines', { path: 'f.txt', start_line: 1, new_content: 'new' }],
  ['regex_replace', { path: 'f.txt', pattern: 'old', replacement: 'new' }],
  ['patch', { target: 'f.txt', diff: '@@ -1 +1 @@\n-old\n+new\n' }],
];

describe('stale-write protection with a read tracker', () => {
  test.each(WRITES)('%s refuses a file the agent has not read, then works once it has', async (tool, args) => {
    workspace = await createWorkspace({ 'f.txt': 'old\n' }, { readTracker: new InMemoryReadTracker() });
    const refused = await workspace.call(tool, args);
    expect(refused.kind).toBe('forbidden');
    expect(refused.recoverable).toBe(true);
    expect(refused.data).toEqual({ path: 'f.txt', reason: 'unread' });
    expect(refused.error).toContain('has not been read in this session; read it first');
    expect(await readFile(workspace.dir.join('work', 'f.txt'), 'utf8')).toBe('old\n');
    await workspace.call('read_file', { path: 'f.txt' });
    const allowed = await workspace.call(tool, args);
    expect(allowed.success, allowed.error).toBe(true);
    expect(await readFile(workspace.dir.join('work', 'f.txt'), 'utf8')).toBe('new\n');
  });

  test.each(WRITES)('%s refuses a file that changed on disk since it was read', async (tool, args) => {
    workspace = await createWorkspace({ 'f.txt': 'old\n' }, { readTracker: new InMemoryReadTracker() });
    await workspace.call('read_file', { path: 'f.txt' });
    await appendFile(workspace.dir.join('work', 'f.txt'), 'someone else\n');
    const refused = await workspace.call(tool, args);
    expect(refused.error).toContain('changed on disk since it was last read');
    expect(refused.kind).toBe('forbidden');
    expect(refused.recoverable).toBe(true);
    expect(refused.data).toEqual({ path: 'f.txt', reason: 'changed' });
  });

  test("the agent's own writes keep the file current, so edits can follow each other", async () => {
    workspace = await createWorkspace({}, { readTracker: new InMemoryReadTracker() });
    expect((await workspace.call('write_file', { path: 'n.txt', content: 'a\n' })).success).toBe(true);
    expect((await workspace.call('edit_file', { path: 'n.txt', old_string: 'a', new_string: 'b' })).success).toBe(true);
    expect((await workspace.call('append_file', { path: 'n.txt', content: 'c' })).success).toBe(true);
    expect((await workspace.call('edit_lines', { path: 'n.txt', start_line: 2, new_content: 'C' })).success).toBe(true);
    expect(await readFile(workspace.dir.join('work', 'n.txt'), 'utf8')).toBe('b\nC');
  });

  test('a touched file (same size, new mtime) counts as changed; tail counts as a read', async () => {
    workspace = await createWorkspace({ 'f.txt': 'old\n' }, { readTracker: new InMemoryReadTracker() });
    await workspace.call('tail', { path: 'f.txt' });
    await utimes(workspace.dir.join('work', 'f.txt'), new Date(), new Date(Date.now() + 5000));
    expect((await workspace.call('write_file', { path: 'f.txt', content: 'x' })).kind).toBe('forbidden');
  });

  test('without a tracker nothing is refused', async () => {
    workspace = await createWorkspace({ 'f.txt': 'old\n' });
    expect((await workspace.call('write_file', { path: 'f.txt', content: 'x' })).success).toBe(true);
  });
});

describe('InMemoryReadTracker', () => {
  test('compares size, mtime and inode, and forgets', () => {
    const tracker = new InMemoryReadTracker();
    const version = { size: 3, mtimeMs: 10, ino: 7 };
    expect(tracker.check('/f', version)).toBe('unread');
    tracker.record('/f', version);
    expect(tracker.check('/f', version)).toBe('current');
    expect(tracker.check('/f', { ...version, ino: 8 })).toBe('changed');
    expect(tracker.check('/f', { ...version, size: 4 })).toBe('changed');
    tracker.forget('/f');
    expect(tracker.check('/f', version)).toBe('unread');
  });
});
