import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { type FileVersion, InMemoryReadTracker, type ReadState, type ReadTracker } from './index.js';
import { bundleChildScript, createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const range = (count: number) => Array.from({ length: count }, (_, index) => index);
const read = (name: string) => readFile((workspace as Workspace).dir.join('work', name), 'utf8');

describe('concurrent read-modify-writes of one file in one process', () => {
  test('50 parallel edit_file calls, each with its own anchor, all land', async () => {
    const tracker = new InMemoryReadTracker();
    workspace = await createWorkspace(
      {
        'shared.txt': range(50)
          .map((index) => `anchor ${index} todo\n`)
          .join(''),
      },
      { readTracker: tracker },
    );
    expect((await workspace.call('read_file', { path: 'shared.txt' })).success).toBe(true);
    const results = await Promise.all(
      range(50).map((index) =>
        (workspace as Workspace).call('edit_file', {
          path: 'shared.txt',
          old_string: `anchor ${index} todo`,
          new_string: `anchor ${index} done`,
        }),
      ),
    );
    expect(results.filter((result) => !result.success).map((result) => result.error)).toEqual([]);
    expect(await read('shared.txt')).toBe(
      range(50)
        .map((index) => `anchor ${index} done\n`)
        .join(''),
    );
  });

  test('30 parallel append_file calls give 30 lines', async () => {
    workspace = await createWorkspace({ 'log.txt': 'start\n' });
    const results = await Promise.all(
      range(30).map((index) => (workspace as Workspace).call('append_file', { path: 'log.txt', content: `line ${index}` })),
    );
    expect(results.every((result) => result.success)).toBe(true);
    const lines = (await read('log.txt')).split('\n');
    expect(lines[0]).toBe('start');
    expect(lines.slice(1).sort()).toEqual(
      range(30)
        .map((index) => `line ${index}`)
        .sort(),
    );
  });

  test('edit_file, edit_lines, regex_replace, patch and append_file running at once on one file all land', async () => {
    const kinds = ['edit', 'lines', 'regex', 'patch'] as const;
    const original = kinds.flatMap((kind) => range(8).map((index) => `${kind} ${index} todo\n`)).join('');
    workspace = await createWorkspace({ 'mixed.txt': original });
    const lineOf = (kind: (typeof kinds)[number], index: number) => kinds.indexOf(kind) * 8 + index + 1;
    const calls = range(8).flatMap((index) => [
      ['edit_file', { path: 'mixed.txt', old_string: `edit ${index} todo`, new_string: `edit ${index} done` }],
      ['edit_lines', { path: 'mixed.txt', start_line: lineOf('lines', index), new_content: `lines ${index} done` }],
      ['regex_replace', { path: 'mixed.txt', pattern: `^regex ${index} todo$`, replacement: `regex ${index} done`, multiline: true }],
      [
        'patch',
        {
          target: 'mixed.txt',
          diff: `--- a/mixed.txt\n+++ b/mixed.txt\n@@ -${lineOf('patch', index)},1 +${lineOf('patch', index)},1 @@\n-patch ${index} todo\n+patch ${index} done\n`,
        },
      ],
      ['append_file', { path: 'mixed.txt', content: `appended ${index}` }],
    ]) as [string, Record<string, unknown>][];
    const results = await Promise.all(calls.map(([tool, args]) => (workspace as Workspace).call(tool, args)));
    expect(results.filter((result) => !result.success).map((result) => result.error)).toEqual([]);
    const lines = (await read('mixed.txt')).split('\n');
    expect(lines.slice(0, 32)).toEqual(kinds.flatMap((kind) => range(8).map((index) => `${kind} ${index} done`)));
    expect(lines.slice(32, 40).sort()).toEqual(range(8).map((index) => `appended ${index}`));
  });

  test('a file another program changes between the read and the write is refused as a conflict, not overwritten', async () => {
    let target = '';
    /** Another program rewrites the file in place (same size, same mtime) right after the edit read it. */
    const meddling: ReadTracker = {
      record: () => {},
      forget: () => {},
      check(path: string, _version: FileVersion): ReadState {
        const { atime, mtime } = statSync(path);
        writeFileSync(path, readFileSync(path, 'utf8').replace('one', 'ONE'));
        utimesSync(path, atime, mtime);
        target = path;
        return 'current';
      },
    };
    workspace = await createWorkspace({ 'c.txt': 'one two\n' }, { readTracker: meddling });
    const result = await workspace.call('edit_file', { path: 'c.txt', old_string: 'two', new_string: 'TWO' });
    expect(target).not.toBe('');
    expect(result.success).toBe(false);
    expect(result.kind).toBe('execution_failed');
    expect(result.recoverable).toBe(true);
    expect(result.error).toContain('c.txt changed on disk while it was being edited');
    expect(result.data).toMatchObject({ path: 'c.txt', code: 'EDIT_CONFLICT' });
    expect(await read('c.txt')).toBe('ONE two\n');
    expect(await readdir(workspace.work)).toEqual(['c.txt']);
  });
});

/** A child process that makes `count` edits to shared.txt, each replacing `<prefix> <index> todo`, after "go" on stdin. */
const EDITOR_SOURCE = `
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { editFileSkill } from '@nexus/skills-fs';
const [cwd, prefix, count] = process.argv.slice(2);
const services = new ServiceContainer().register('cwd', cwd).register('permissions', resolvePreset('sandboxed', { cwd }));
const skill = editFileSkill.factory(services);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const results = [];
for (let index = 0; index < Number(count); index++) {
  const result = await skill.execute({ path: 'shared.txt', old_string: prefix + ' ' + index + ' todo', new_string: prefix + ' ' + index + ' done' });
  results.push({ index, ...result.toJSON() });
}
process.stdout.write(JSON.stringify(results) + '\\n');
process.exit(0);
`;

interface EditorResult {
  index: number;
  success: boolean;
  error?: string;
  recoverable?: boolean;
  data?: { code?: string };
}

describe('two processes editing one file', () => {
  test('every edit either lands or is refused as a conflict; none is silently lost', async () => {
    const count = 40;
    const prefixes = ['left', 'right'];
    workspace = await createWorkspace({
      'shared.txt': prefixes.flatMap((prefix) => range(count).map((index) => `${prefix} ${index} todo\n`)).join(''),
    });
    const script = await bundleChildScript(workspace.dir, 'editor', EDITOR_SOURCE);
    const children: ChildProcess[] = prefixes.map((prefix) =>
      spawn(process.execPath, [script, (workspace as Workspace).work, prefix, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const outputs = children.map((child) => {
      let text = '';
      child.stdout?.on('data', (chunk: Buffer) => (text += chunk));
      return { child, text: () => text };
    });
    await Promise.all(
      outputs.map(async ({ text }) => {
        while (!text().includes('ready\n')) await new Promise((resolve) => setTimeout(resolve, 10));
      }),
    );
    for (const child of children) child.stdin?.write('go\n');
    await Promise.all(children.map((child) => once(child, 'exit')));
    const final = await read('shared.txt');
    let landed = 0;
    for (const [position, { text }] of outputs.entries()) {
      const results = JSON.parse(text().split('\n')[1] as string) as EditorResult[];
      expect(results).toHaveLength(count);
      for (const result of results) {
        const line = `${prefixes[position]} ${result.index}`;
        if (result.success) {
          landed++;
          expect(final, `${line} was reported done`).toContain(`${line} done\n`);
        } else {
          expect(result, `${line} failed otherwise than as a conflict`).toMatchObject({
            recoverable: true,
            data: { code: 'EDIT_CONFLICT' },
          });
          expect(final).toContain(`${line} todo\n`);
        }
      }
    }
    expect(landed).toBeGreaterThan(0);
    // No lock or temporary file is left behind.
    expect(await readdir(workspace.work)).toEqual(['shared.txt']);
  });
});
