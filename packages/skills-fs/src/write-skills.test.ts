import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const read = (name: string) => readFile((workspace as Workspace).dir.join('work', name), 'utf8');
const mode = async (name: string) => (await stat((workspace as Workspace).dir.join('work', name))).mode & 0o777;
/** Names in work/, to prove no temporary file is left behind. */
const names = async (directory = '') => (await readdir((workspace as Workspace).dir.join('work', directory))).sort();

describe('write_file', () => {
  test('creates a file and its parent directories', async () => {
    workspace = await createWorkspace({});
    const result = await workspace.call('write_file', { path: 'a/b/c.txt', content: 'hello\n' });
    expect(result.output).toBe('Created a/b/c.txt (6 bytes).');
    expect(await read('a/b/c.txt')).toBe('hello\n');
  });

  test('replaces a file atomically, keeping its mode and CRLF line endings, and shows the diff', async () => {
    workspace = await createWorkspace({ 'w.txt': { content: 'one\r\ntwo\r\n', mode: 0o640 } });
    const result = await workspace.call('write_file', { path: 'w.txt', content: 'one\nTWO\n' });
    expect(result.output).toContain('Updated w.txt (+1 −1 lines)');
    expect(result.output).toContain('-two\n+TWO');
    expect(await read('w.txt')).toBe('one\r\nTWO\r\n');
    expect(await mode('w.txt')).toBe(0o640);
    expect(await names()).toEqual(['w.txt']);
  });

  test('refuses to write over a directory', async () => {
    workspace = await createWorkspace({ d: {} });
    const result = await workspace.call('write_file', { path: 'd', content: 'x' });
    expect(result.kind).toBe('invalid_input');
  });
});

describe('edit_file', () => {
  test('replaces a unique string, keeping CRLF endings and mode', async () => {
    workspace = await createWorkspace({ 'e.txt': { content: 'alpha\r\nbeta\r\ngamma\r\n', mode: 0o600 } });
    const result = await workspace.call('edit_file', { path: 'e.txt', old_string: 'alpha\nbeta', new_string: 'ALPHA\nBETA\nextra' });
    expect(result.success, result.error).toBe(true);
    expect(await read('e.txt')).toBe('ALPHA\r\nBETA\r\nextra\r\ngamma\r\n');
    expect(await mode('e.txt')).toBe(0o600);
    expect(result.output).toContain('(+3 −2 lines)');
  });

  test('refuses an ambiguous old_string, saying how many matches, unless replace_all', async () => {
    workspace = await createWorkspace({ 'e.txt': 'x = 1\nx = 1\nx = 1\n' });
    const ambiguous = await workspace.call('edit_file', { path: 'e.txt', old_string: 'x = 1', new_string: 'x = 2' });
    expect(ambiguous.kind).toBe('invalid_input');
    expect(ambiguous.error).toContain('matches 3 places');
    expect(await read('e.txt')).toBe('x = 1\nx = 1\nx = 1\n');
    const all = await workspace.call('edit_file', { path: 'e.txt', old_string: 'x = 1', new_string: 'x = 2', replace_all: true });
    expect(all.output).toContain('replaced 3 occurrence(s)');
    expect(await read('e.txt')).toBe('x = 2\nx = 2\nx = 2\n');
  });

  test('says when old_string is missing', async () => {
    workspace = await createWorkspace({ 'e.txt': 'abc\n' });
    const result = await workspace.call('edit_file', { path: 'e.txt', old_string: 'xyz', new_string: '' });
    expect(result.error).toContain('was not found');
  });

  test('applies batched edits in order, all or nothing', async () => {
    workspace = await createWorkspace({ 'e.txt': 'a b c\n' });
    const failing = await workspace.call('edit_file', {
      path: 'e.txt',
      edits: [
        { old_string: 'a', new_string: 'A' },
        { old_string: 'zzz', new_string: 'Z' },
      ],
    });
    expect(failing.error).toContain('`edits[1].old_string` was not found');
    expect(await read('e.txt')).toBe('a b c\n');
    const ok = await workspace.call('edit_file', {
      path: 'e.txt',
      edits: [
        { old_string: 'a', new_string: 'A' },
        { old_string: 'A b', new_string: 'AB' },
      ],
    });
    expect(ok.output).toContain('2 edits, 2 replacement(s)');
    expect(await read('e.txt')).toBe('AB c\n');
  });

  test('dry_run returns the diff without writing', async () => {
    workspace = await createWorkspace({ 'e.txt': 'keep\nold\n' });
    const result = await workspace.call('edit_file', { path: 'e.txt', old_string: 'old', new_string: 'new', dry_run: true });
    expect(result.output).toContain('Dry run, nothing written');
    expect(result.output).toContain('-old\n+new');
    expect(result.data).toMatchObject({ dryRun: true, changed: false });
    expect(await read('e.txt')).toBe('keep\nold\n');
  });

  test('offers the line form too', async () => {
    workspace = await createWorkspace({ 'e.txt': '1\n2\n3\n' });
    const result = await workspace.call('edit_file', { path: 'e.txt', start_line: 2, end_line: 3, new_content: 'two-three' });
    expect(result.output).toContain('lines 2–3 replaced');
    expect(await read('e.txt')).toBe('1\ntwo-three\n');
  });

  test('refuses binary files and files that are not valid UTF-8', async () => {
    workspace = await createWorkspace({ 'b.bin': new Uint8Array([1, 0, 2]), 'l.txt': new Uint8Array([0x63, 0xe9, 0x0a]) });
    expect((await workspace.call('edit_file', { path: 'b.bin', old_string: 'a', new_string: 'b' })).error).toContain('binary');
    expect((await workspace.call('edit_file', { path: 'l.txt', old_string: 'c', new_string: 'b' })).error).toContain('not valid UTF-8');
  });
});

describe('edit_lines', () => {
  test('replaces, inserts, deletes and appends lines, keeping line endings', async () => {
    workspace = await createWorkspace({ 'l.txt': '1\r\n2\r\n3\r\n' });
    await workspace.call('edit_lines', { path: 'l.txt', start_line: 2, new_content: 'two\nmore' });
    expect(await read('l.txt')).toBe('1\r\ntwo\r\nmore\r\n3\r\n');
    await workspace.call('edit_lines', { path: 'l.txt', start_line: 1, end_line: 0, new_content: 'zero' });
    expect(await read('l.txt')).toBe('zero\r\n1\r\ntwo\r\nmore\r\n3\r\n');
    await workspace.call('edit_lines', { path: 'l.txt', start_line: 3, end_line: 4, new_content: '' });
    expect(await read('l.txt')).toBe('zero\r\n1\r\n3\r\n');
    await workspace.call('edit_lines', { path: 'l.txt', start_line: 4, new_content: 'end' });
    expect(await read('l.txt')).toBe('zero\r\n1\r\n3\r\nend\r\n');
  });

  test('keeps a missing final newline missing', async () => {
    workspace = await createWorkspace({ 'l.txt': 'a\nb' });
    await workspace.call('edit_lines', { path: 'l.txt', start_line: 2, new_content: 'B' });
    expect(await read('l.txt')).toBe('a\nB');
  });
});

describe('append_file', () => {
  test("appends on a new line in the file's style and creates missing files", async () => {
    workspace = await createWorkspace({ 'log.txt': { content: 'one\r\ntwo', mode: 0o600 } });
    const result = await workspace.call('append_file', { path: 'log.txt', content: 'three\nfour\n' });
    expect(result.output).toContain('Appended');
    expect(await read('log.txt')).toBe('one\r\ntwo\r\nthree\r\nfour\r\n');
    expect(await mode('log.txt')).toBe(0o600);
    await workspace.call('append_file', { path: 'log.txt', content: 'x', newline: false });
    expect(await read('log.txt')).toBe('one\r\ntwo\r\nthree\r\nfour\r\nx');
    await workspace.call('append_file', { path: 'new/n.txt', content: 'fresh' });
    expect(await read('new/n.txt')).toBe('fresh');
  });
});

describe('regex_replace', () => {
  test('replaces with group references, a count and flags, keeping CRLF', async () => {
    workspace = await createWorkspace({ 'r.txt': 'foo1 Foo2 foo3\r\nbar\r\n' });
    const result = await workspace.call('regex_replace', {
      path: 'r.txt',
      pattern: 'foo(\\d)',
      replacement: '\\1-$1',
      ignore_case: true,
      count: 2,
    });
    expect(result.output).toContain('2 replacement(s)');
    expect(await read('r.txt')).toBe('1-1 2-2 foo3\r\nbar\r\n');
    await workspace.call('regex_replace', { path: 'r.txt', pattern: '^bar$', replacement: 'BAR', multiline: true });
    expect(await read('r.txt')).toBe('1-1 2-2 foo3\r\nBAR\r\n');
    await workspace.call('regex_replace', { path: 'r.txt', pattern: '3.BAR', replacement: '3 $<x>', dotall: true });
    expect(await read('r.txt')).toBe('1-1 2-2 foo3 \r\n');
  });

  test('named groups, $& and literal $$', async () => {
    workspace = await createWorkspace({ 'r.txt': 'price 5\n' });
    await workspace.call('regex_replace', { path: 'r.txt', pattern: '(?<n>\\d)', replacement: '$$$<n>.00 ($&)' });
    expect(await read('r.txt')).toBe('price $5.00 (5)\n');
  });

  test('says when nothing matches and refuses more than 10,000 matches', async () => {
    workspace = await createWorkspace({ 'r.txt': 'a'.repeat(10_001) });
    expect((await workspace.call('regex_replace', { path: 'r.txt', pattern: 'b', replacement: 'c' })).error).toContain('does not match');
    const many = await workspace.call('regex_replace', { path: 'r.txt', pattern: 'a', replacement: 'b' });
    expect(many.error).toContain('more than 10000 times');
    expect(await read('r.txt')).toBe('a'.repeat(10_001));
  });

  test('stops a catastrophic pattern at the time limit while the process stays responsive', async () => {
    workspace = await createWorkspace({ 'r.txt': `${'a'.repeat(40)}!\n` }, { fileSkillOptions: { regexTimeoutMs: 500 } });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const result = await workspace.call('regex_replace', { path: 'r.txt', pattern: '(?=(a+)+$)a', replacement: 'x' });
    clearInterval(timer);
    expect(result.kind).toBe('timeout');
    expect(result.error).toContain('took too long');
    expect(ticks).toBeGreaterThan(0);
    expect(await read('r.txt')).toBe(`${'a'.repeat(40)}!\n`);
  });
});

describe('patch', () => {
  const original = 'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n';
  const twoHunks =
    '--- a/p.txt\n+++ b/p.txt\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+LINE 2\n line 3\n@@ -6,3 +6,3 @@\n line 6\n-line 7\n+LINE 7\n line 8\n';

  test('applies a unified diff and shows the change; keeps CRLF', async () => {
    workspace = await createWorkspace({ 'p.txt': original, 'c.txt': original.replaceAll('\n', '\r\n') });
    const result = await workspace.call('patch', { target: 'p.txt', diff: twoHunks });
    expect(result.output).toContain('Patched 1 file(s)');
    expect(await read('p.txt')).toBe(original.replace('line 2', 'LINE 2').replace('line 7', 'LINE 7'));
    await workspace.call('patch', { target: 'c.txt', diff: twoHunks });
    expect(await read('c.txt')).toBe(original.replace('line 2', 'LINE 2').replace('line 7', 'LINE 7').replaceAll('\n', '\r\n'));
  });

  test('names the hunk that fails and changes nothing; fuzzy mode tolerates whitespace', async () => {
    const drifted = original.replace('line 6', '  line 6  ');
    workspace = await createWorkspace({ 'p.txt': drifted });
    const strict = await workspace.call('patch', { target: 'p.txt', diff: twoHunks });
    expect(strict.kind).toBe('invalid_input');
    expect(strict.error).toContain('Hunk 2 of 2 for p.txt (@@ -6,3 +6,3 @@) does not apply');
    expect(await read('p.txt')).toBe(drifted);
    const fuzzy = await workspace.call('patch', { target: 'p.txt', diff: twoHunks, mode: 'fuzzy' });
    expect(fuzzy.success, fuzzy.error).toBe(true);
    expect(await read('p.txt')).toContain('LINE 7');
  });

  test('a multi-file diff applies to all files or to none; new files are created', async () => {
    const multi =
      '--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-x\n+X\n--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1,2 @@\n+new\n+file\n--- a/y.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-y\n+Y\n';
    workspace = await createWorkspace({ 'x.txt': 'x\n', 'y.txt': 'not y\n' });
    const failed = await workspace.call('patch', { target: '.', diff: multi });
    expect(failed.error).toContain('Hunk 1 of 1 for y.txt');
    expect(await read('x.txt')).toBe('x\n');
    expect(await names()).toEqual(['x.txt', 'y.txt']);
    await workspace.call('write_file', { path: 'y.txt', content: 'y\n' });
    const dry = await workspace.call('patch', { target: '.', diff: multi, dry_run: true });
    expect(dry.output).toContain('Dry run, nothing written. The diff applies to 3 file(s)');
    expect(await read('x.txt')).toBe('x\n');
    const applied = await workspace.call('patch', { target: '.', diff: multi });
    expect(applied.output).toContain('Patched 3 file(s)');
    expect([await read('x.txt'), await read('y.txt'), await read('sub/new.txt')]).toEqual(['X\n', 'Y\n', 'new\nfile\n']);
  });

  test('reads the diff from diff_file and refuses deletions', async () => {
    workspace = await createWorkspace({ 'p.txt': original, 'change.diff': twoHunks, 'gone.txt': 'bye\n' });
    expect((await workspace.call('patch', { target: 'p.txt', diff_file: 'change.diff' })).success).toBe(true);
    const deletion = await workspace.call('patch', { target: 'gone.txt', diff: '--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n' });
    expect(deletion.error).toContain('does not delete files');
    expect(await read('gone.txt')).toBe('bye\n');
  });
});

describe('copy_file', () => {
  test('copies with mode and mtime, into directories, and only overwrites when asked', async () => {
    workspace = await createWorkspace({ 'src.sh': { content: 'echo hi\n', mode: 0o755 }, 'other.txt': 'other\n', dir: {} });
    const { utimes } = await import('node:fs/promises');
    await utimes(workspace.dir.join('work', 'src.sh'), new Date('2020-01-01'), new Date('2020-01-01'));
    expect((await workspace.call('copy_file', { source: 'src.sh', destination: 'deep/copy.sh' })).success).toBe(true);
    expect(await read('deep/copy.sh')).toBe('echo hi\n');
    expect(await mode('deep/copy.sh')).toBe(0o755);
    expect((await stat(workspace.dir.join('work', 'deep/copy.sh'))).mtime.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    await workspace.call('copy_file', { source: 'src.sh', destination: 'dir' });
    expect(await read('dir/src.sh')).toBe('echo hi\n');
    const refused = await workspace.call('copy_file', { source: 'src.sh', destination: 'other.txt' });
    expect(refused.error).toContain('already exists; set overwrite=true');
    expect(await read('other.txt')).toBe('other\n');
    await workspace.call('copy_file', { source: 'src.sh', destination: 'other.txt', overwrite: true });
    expect(await read('other.txt')).toBe('echo hi\n');
    expect(await names()).toEqual(['deep', 'dir', 'other.txt', 'src.sh']);
  });

  test('copies a file whose size the kernel reports as 0 (/proc) by reading it to its end, within maxEditBytes', async () => {
    workspace = await createWorkspace({}, { preset: 'trusted' });
    const result = await workspace.call('copy_file', { source: '/proc/self/status', destination: 'status.txt' });
    expect(result.success, result.error).toBe(true);
    const copied = await read('status.txt');
    expect(copied).toMatch(/^Name:/);
    expect(copied).toContain('\nPid:');
    expect(result.data).toMatchObject({ bytes: Buffer.byteLength(copied) });
    await workspace.dir.cleanup();
    workspace = await createWorkspace({}, { preset: 'trusted', fileSkillOptions: { maxEditBytes: 100 } });
    const refused = await workspace.call('copy_file', { source: '/proc/self/status', destination: 'status.txt' });
    expect(refused.kind).toBe('invalid_input');
    expect(refused.error).toContain('more than the 100 bytes');
    expect(await names()).toEqual([]);
  });
});

describe('mkdir and rename', () => {
  test('mkdir creates parents and accepts an existing directory', async () => {
    workspace = await createWorkspace({});
    expect((await workspace.call('mkdir', { path: 'a/b/c' })).output).toBe('Created a/b/c (3 directories).');
    expect((await workspace.call('mkdir', { path: 'a/b' })).output).toBe('a/b already exists.');
    expect((await lstat(workspace.dir.join('work', 'a/b/c'))).isDirectory()).toBe(true);
  });

  test('rename moves files and directories, into directories, and only overwrites when asked', async () => {
    workspace = await createWorkspace({ 'a.txt': 'a', 'b.txt': 'b', d: { 'in.txt': 'in' }, target: {} });
    expect((await workspace.call('rename', { source: 'a.txt', destination: 'moved/a2.txt' })).success).toBe(true);
    expect(await read('moved/a2.txt')).toBe('a');
    expect((await workspace.call('rename', { source: 'b.txt', destination: 'moved/a2.txt' })).error).toContain('already exists');
    expect((await workspace.call('rename', { source: 'b.txt', destination: 'moved/a2.txt', overwrite: true })).success).toBe(true);
    expect(await read('moved/a2.txt')).toBe('b');
    expect((await workspace.call('rename', { source: 'd', destination: 'target' })).output).toBe('Moved d to target/d.');
    expect(await read('target/d/in.txt')).toBe('in');
    expect((await workspace.call('rename', { source: 'target', destination: 'target/d/inner' })).error).toContain(
      'cannot move into itself',
    );
  });

  test('rename moves a symlink itself, like mv, and leaves what it points to in place', async () => {
    workspace = await createWorkspace({
      'real.txt': 'real',
      'link.txt': { symlink: 'real.txt' },
      'out-link': { symlink: '../outside/secret.txt' },
    });
    expect((await workspace.call('rename', { source: 'link.txt', destination: 'renamed-link.txt' })).success).toBe(true);
    expect((await lstat(workspace.dir.join('work', 'renamed-link.txt'))).isSymbolicLink()).toBe(true);
    expect(await read('real.txt')).toBe('real');
    expect(await names()).toEqual(['out-link', 'real.txt', 'renamed-link.txt']);
    // A link that resolves out of the sandbox is refused, and what it points to is never touched.
    expect((await workspace.call('rename', { source: 'out-link', destination: 'moved-link' })).kind).toBe('forbidden');
    expect(await readFile(workspace.dir.join('outside', 'secret.txt'), 'utf8')).toBe('top secret\n');
  });
});
