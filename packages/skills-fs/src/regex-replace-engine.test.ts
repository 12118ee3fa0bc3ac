import { readFile } from 'node:fs/promises';
import { afterEach, expect, test } from 'vitest';
import { DEFAULT_REGEX_TIMEOUT_MS, resolveFileSkillOptions } from './file-skill-options.js';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const read = (name: string) => readFile((workspace as Workspace).dir.join('work', name), 'utf8');

test('regex_replace answers catastrophic patterns with the linear-time engine, with the default options', async () => {
  const evil = `${'a'.repeat(40)}!\n${'\t'.repeat(30)}x\n`;
  workspace = await createWorkspace({ 'r.txt': `${evil}aaa\n`, 'other.txt': 'other\n' });
  const replaced = workspace.call('regex_replace', { path: 'r.txt', pattern: '(a+)+$', replacement: 'x', multiline: true });
  expect((await workspace.call('read_file', { path: 'other.txt' })).success).toBe(true);
  expect((await replaced).output).toContain('1 replacement(s)');
  expect(await read('r.txt')).toBe(`${evil}x\n`);
  for (const pattern of ['^(?:[\\s\\S]*)*\\x00', '(\\s*)*\\s*y', '(a|a)+$']) {
    const result = await workspace.call('regex_replace', { path: 'r.txt', pattern, replacement: 'x' });
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toContain('does not match');
  }
});

test('regex_replace stops a backtracking-only pattern (look-ahead) at the 5 s default limit; other calls complete meanwhile', async () => {
  expect(DEFAULT_REGEX_TIMEOUT_MS).toBeLessThanOrEqual(5000);
  workspace = await createWorkspace({ 'r.txt': `${'a'.repeat(40)}!\n`, 'other.txt': 'other\n' });
  expect(resolveFileSkillOptions(workspace.services).regexTimeoutMs).toBe(DEFAULT_REGEX_TIMEOUT_MS);
  let settled = false;
  const replaced = workspace.call('regex_replace', { path: 'r.txt', pattern: '(?=(a+)+$)a', replacement: 'x' }).finally(() => {
    settled = true;
  });
  const other = await workspace.call('regex_replace', { path: 'other.txt', pattern: 'o(?=t)', replacement: '0' });
  expect(other.output).toContain('1 replacement(s)');
  expect(settled).toBe(false);
  const result = await replaced;
  expect(result.kind).toBe('timeout');
  expect(result.error).toContain('took too long');
  expect(await read('r.txt')).toBe(`${'a'.repeat(40)}!\n`);
  expect(await read('other.txt')).toBe('0ther\n');
});

test('regex_replace keeps JavaScript replacement semantics on both engines', async () => {
  workspace = await createWorkspace({ 'e.txt': 'aab\n', 'n.txt': 'abk<n> abab\n', 'p.txt': 'left mid right\n' });
  // Empty matches next to a match, as String.prototype.replace makes them.
  await workspace.call('regex_replace', { path: 'e.txt', pattern: 'a*', replacement: '-' });
  expect(await read('e.txt')).toBe('--b-\n-');
  // A named back-reference is not the literal `k<n>` (RE2 has no back-references).
  await workspace.call('regex_replace', { path: 'n.txt', pattern: '(?<n>ab)\\k<n>', replacement: '[$<n>]' });
  expect(await read('n.txt')).toBe('abk<n> [ab]\n');
  await workspace.call('regex_replace', { path: 'p.txt', pattern: 'mid', replacement: "<$`|$'>" });
  expect(await read('p.txt')).toBe('left <left | right\n> right\n');
});
