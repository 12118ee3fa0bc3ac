import { readFileSync, readlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { PresetName } from '@nexus/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

/*
 * A process's environment (API keys, tokens) and memory are what the kernel keeps from other
 * users in /proc: no file skill may reach them, at any level, however the path is spelled.
 */

// This thread's id, as /proc/thread-self names it (`<pid>/task/<tid>`).
const tid = readlinkSync('/proc/thread-self').split('/').pop() as string;

/** The paths an attacker passes for this process's secrets. */
const ALIASES: Record<string, string> = {
  '/proc/self/environ': '/proc/self/environ',
  '/proc/thread-self/environ': '/proc/thread-self/environ',
  '/proc/<own pid>/environ': `/proc/${process.pid}/environ`,
  '/proc/self/task/<tid>/environ': `/proc/self/task/${tid}/environ`,
  '/proc/self/mem': '/proc/self/mem',
  '/proc/self/auxv': '/proc/self/auxv',
  '/proc/self/root/proc/self/environ': '/proc/self/root/proc/self/environ',
  '/dev/fd/../environ (/dev/fd is /proc/self/fd)': '/dev/fd/../environ',
};

/** Each alias as a symlink in the working directory. */
const LINKS = Object.fromEntries(Object.entries(ALIASES).map(([name, target], index) => [name, { name: `link-${index}`, target }]));

/** How each skill is pointed at a path; the writes are approved (trusted asks `confirm`), the edits only dry runs. */
const SKILLS: Record<string, (path: string) => Record<string, unknown>> = {
  read_file: (path) => ({ path }),
  tail: (path) => ({ path }),
  file_info: (path) => ({ path }),
  grep: (path) => ({ pattern: '=', path }),
  copy_file: (source) => ({ source, destination: 'copied.txt' }),
  'patch (diff_file)': (diffFile) => ({ target: 'inside.txt', diff_file: diffFile, dry_run: true }),
  'edit_file (dry run)': (path) => ({ path, old_string: 'PATH=', new_string: 'X=', dry_run: true }),
  'edit_file (lines, dry run)': (path) => ({ path, start_line: 1, new_content: 'x', dry_run: true }),
  'edit_lines (dry run)': (path) => ({ path, start_line: 1, new_content: 'x', dry_run: true }),
  'regex_replace (dry run)': (path) => ({ path, pattern: '=', replacement: ':', dry_run: true }),
  write_file: (path) => ({ path, content: 'pwned' }),
  append_file: (path) => ({ path, content: 'pwned' }),
};

/** A line of this process's environment as the kernel holds it, which no output may contain. */
const environmentLine = readFileSync('/proc/self/environ', 'latin1').split('\0')[0] as string;

const cases = Object.keys(SKILLS).flatMap((skill) =>
  Object.keys(ALIASES).flatMap((alias) => [[skill, alias, 'directly'] as const, [skill, alias, 'through a symlink in cwd'] as const]),
);

describe.each(['trusted', 'yolo'] satisfies PresetName[])(
  'at %s, no file skill reaches its own process’s environment or memory',
  (preset) => {
    let workspace: Workspace;
    beforeAll(async () => {
      const links = Object.fromEntries(Object.values(LINKS).map(({ name, target }) => [name, { symlink: target }]));
      workspace = await createWorkspace({ 'inside.txt': 'inside\n', ...links }, { preset, confirm: true });
    });
    afterAll(() => workspace.dir.cleanup());

    test.each(cases)('%s × %s, %s', async (skill, alias, how) => {
      const path = how === 'directly' ? (ALIASES[alias] as string) : (LINKS[alias]?.name as string);
      const tool = skill.split(' ')[0] as string;
      const result = await workspace.call(tool, (SKILLS[skill] as (path: string) => Record<string, unknown>)(path));
      expect(result.kind, result.text).toBe('forbidden');
      expect(result.text).toContain('keeps from other users');
      expect(result.text).not.toContain(environmentLine);
      expect((await readdir(workspace.work)).sort()).toEqual(['inside.txt', ...Object.values(LINKS).map(({ name }) => name)].sort());
    });

    test('grep walking /proc/self leaves out what the kernel keeps from other users (io), and finds the rest (status)', async () => {
      const search = (include: string) =>
        workspace.call('grep', { pattern: '^[A-Za-z_]+:', path: '/proc/self', recursive: false, include });
      const status = await search('status');
      expect(status.kind, status.text).toBeUndefined();
      expect(status.output).toContain('/status:');
      const io = await search('io');
      expect(io.kind, io.text).toBeUndefined();
      expect(io.output).toMatch(/^No matches/);
    });
  },
);
