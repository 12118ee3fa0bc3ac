import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const bytes = (name: string) => readFile((workspace as Workspace).dir.join('work', name));
const BOM = '\uFEFF';

describe('encodings', () => {
  test('append_file refuses a UTF-16 file, as the other edit skills do', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('one\ntwo\n', 'utf16le')]);
    workspace = await createWorkspace({ 'wide.txt': utf16 });
    const result = await workspace.call('append_file', { path: 'wide.txt', content: 'three' });
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toContain('UTF-16');
    expect(await bytes('wide.txt')).toEqual(utf16);
    expect((await workspace.call('edit_file', { path: 'wide.txt', old_string: 'one', new_string: '1' })).kind).toBe('invalid_input');
  });

  test.each([
    ['edit_lines', { path: 'bom.txt', start_line: 1, new_content: 'FIRST' }],
    ['edit_file', { path: 'bom.txt', start_line: 1, new_content: 'FIRST' }],
    ['edit_file', { path: 'bom.txt', old_string: 'first\n', new_string: 'FIRST\n' }],
    ['regex_replace', { path: 'bom.txt', pattern: '^first', replacement: 'FIRST' }],
    ['patch', { target: 'bom.txt', diff: '--- a/bom.txt\n+++ b/bom.txt\n@@ -1,2 +1,2 @@\n-first\n+FIRST\n second\n' }],
    ['write_file', { path: 'bom.txt', content: 'FIRST\nsecond\n' }],
  ])('%s keeps a UTF-8 BOM (%j)', async (tool, args) => {
    workspace = await createWorkspace({ 'bom.txt': `${BOM}first\nsecond\n` });
    const result = await workspace.call(tool, args);
    expect(result.success, result.error).toBe(true);
    expect((await bytes('bom.txt')).toString('utf8')).toBe(`${BOM}FIRST\nsecond\n`);
  });

  describe('lines nobody touched keep their bytes in a file with mixed CRLF, LF and lone CR', () => {
    // Mostly CRLF; `four\rstill four` is one line with a lone CR inside (as `diff` and `git` see it).
    const mixed = 'one\r\ntwo\r\nthree\nfour\rstill four\r\nfive\n';

    test('regex_replace', async () => {
      workspace = await createWorkspace({ 'm.txt': mixed });
      const result = await workspace.call('regex_replace', { path: 'm.txt', pattern: 'five', replacement: 'FIVE' });
      expect(result.success, result.error).toBe(true);
      expect((await bytes('m.txt')).toString()).toBe('one\r\ntwo\r\nthree\nfour\rstill four\r\nFIVE\n');
      await workspace.call('regex_replace', { path: 'm.txt', pattern: 'two\\nthree', replacement: 'TWO\nTHREE' });
      expect((await bytes('m.txt')).toString()).toBe('one\r\nTWO\r\nTHREE\nfour\rstill four\r\nFIVE\n');
      await workspace.call('regex_replace', { path: 'm.txt', pattern: '^one$', replacement: 'one\nand a half', multiline: true });
      expect((await bytes('m.txt')).toString()).toBe('one\r\nand a half\r\nTWO\r\nTHREE\nfour\rstill four\r\nFIVE\n');
    });

    test('patch', async () => {
      workspace = await createWorkspace({ 'm.txt': mixed });
      const diff = '--- a/m.txt\n+++ b/m.txt\n@@ -2,3 +2,4 @@\n two\n-three\n+THREE\n+three and a half\n four\rstill four\n';
      const result = await workspace.call('patch', { target: 'm.txt', diff });
      expect(result.success, result.error).toBe(true);
      expect((await bytes('m.txt')).toString()).toBe('one\r\ntwo\r\nTHREE\r\nthree and a half\r\nfour\rstill four\r\nfive\n');
    });

    test('edit_file and edit_lines', async () => {
      workspace = await createWorkspace({ 'm.txt': mixed });
      await workspace.call('edit_file', { path: 'm.txt', old_string: 'five', new_string: 'FIVE' });
      await workspace.call('edit_lines', { path: 'm.txt', start_line: 1, new_content: 'ONE' });
      expect((await bytes('m.txt')).toString()).toBe('ONE\r\ntwo\r\nthree\nfour\rstill four\r\nFIVE\n');
    });
  });
});
