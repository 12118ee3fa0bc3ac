import { readdir, readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const MiB = 1024 * 1024;

describe('large edits', () => {
  // Before, V8 gave up with a fatal "invalid size" error collecting 30 million matches, which killed the whole process.
  test("regex_replace '^$' → 'e' over a 29 MiB file of newlines is refused cleanly, and the process lives on", async () => {
    workspace = await createWorkspace({});
    const path = workspace.dir.join('work', 'newlines.txt');
    await writeFile(path, '\n'.repeat(29 * MiB));
    const result = await workspace.call('regex_replace', { path: 'newlines.txt', pattern: '^$', replacement: 'e', multiline: true });
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toContain('matches more than 10000 times');
    const limited = await workspace.call('regex_replace', {
      path: 'newlines.txt',
      pattern: '^$',
      replacement: 'e',
      multiline: true,
      count: 3,
    });
    expect(limited.success, limited.error).toBe(true);
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('e\ne\ne\n\n')).toBe(true);
    expect(text.length).toBe(29 * MiB + 3);
  });

  describe('a result past the size limit (maxEditBytes) is refused, and the file is left as it was', () => {
    const limit = 64 * 1024;
    const original = 'a line of text\n'.repeat(4000);
    const big = 'x'.repeat(limit);
    const refusals: [string, Record<string, unknown>, string][] = [
      ['write_file', { path: 'f.txt', content: `${big}\n` }, 'content'],
      ['edit_file', { path: 'f.txt', old_string: 'a line', new_string: 'a much longer line of text', replace_all: true }, 'new_string'],
      ['edit_lines', { path: 'f.txt', start_line: 1, new_content: big }, 'new_content'],
      ['regex_replace', { path: 'f.txt', pattern: '^a', replacement: 'an extended', multiline: true }, 'replacement'],
      ['patch', { target: 'f.txt', diff: `--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-a line of text\n+${big}\n` }, 'diff'],
    ];
    test.each(refusals)('%s', async (tool, args, parameter) => {
      workspace = await createWorkspace({ 'f.txt': original }, { fileSkillOptions: { maxEditBytes: limit } });
      const result = await workspace.call(tool, args);
      expect(result.kind, result.error).toBe('invalid_input');
      expect(result.error).toContain(`\`${parameter}\``);
      expect(result.error).toMatch(/more than the 65536 bytes/);
      expect(await readFile(workspace.dir.join('work', 'f.txt'), 'utf8')).toBe(original);
      expect(await readdir(workspace.work)).toEqual(['f.txt']);
    });
  });
});
