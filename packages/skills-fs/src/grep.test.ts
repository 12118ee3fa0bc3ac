import { link } from 'node:fs/promises';
import type { Tree } from '@nexus/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_REGEX_TIMEOUT_MS, resolveFileSkillOptions } from './file-skill-options.js';
import { findRipgrep } from './grep/ripgrep-search.js';
import { createWorkspace, type Workspace, type WorkspaceOptions } from './workspace-fixture.js';

const hasRipgrep = (await findRipgrep()) !== undefined;

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const TREE: Tree = {
  'a.ts': 'const needle = 1;\nother\nneedle again\n',
  'b.py': 'x = 1\nNEEDLE = 2\n',
  'crlf.txt': 'first\r\nneedle here\r\nlast\r\n',
  src: { 'deep.ts': 'one\ntwo\nneedle three\nfour\nfive\nsix\nneedle seven\neight\n' },
  node_modules: { 'dep.ts': 'needle in dependency\n' },
  '.git': { config: 'needle in git\n' },
  '.hidden.ts': 'needle hidden\n',
  'image.bin': new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2]),
  'link-out': { symlink: '../outside' },
  'link-file': { symlink: '../outside/secret.txt' },
};

const engines = [
  ['builtin', true],
  ['ripgrep', hasRipgrep],
] as const;

async function setUp(engine: 'builtin' | 'ripgrep', tree: Tree = TREE, options: WorkspaceOptions = {}): Promise<Workspace> {
  workspace = await createWorkspace(tree, {
    outside: { 'secret.txt': 'needle secret\n' },
    ...options,
    fileSkillOptions: { grepEngine: engine, ...options.fileSkillOptions },
  });
  return workspace;
}

describe.each(engines)('grep with the %s engine', (engine, available) => {
  test.skipIf(!available)('finds matches as path:line:text, sorted, skipping .git, node_modules, binary files and symlinks', async () => {
    const ws = await setUp(engine);
    const result = await ws.call('grep', { pattern: 'needle', path: '.' });
    expect(result.data).toMatchObject({ engine });
    expect(result.output).toBe(
      [
        '.hidden.ts:1:needle hidden',
        'a.ts:1:const needle = 1;',
        'a.ts:3:needle again',
        'crlf.txt:2:needle here',
        'src/deep.ts:3:needle three',
        'src/deep.ts:7:needle seven',
        '[6 matches in 4 files.]',
      ].join('\n'),
    );
  });

  test.skipIf(!available)('honours include, ignore_case, recursive and a single file as path', async () => {
    const ws = await setUp(engine);
    expect((await ws.call('grep', { pattern: 'needle', path: '.', include: '*.py', ignore_case: true })).output).toBe(
      'b.py:2:NEEDLE = 2\n[1 match in 1 file.]',
    );
    expect((await ws.call('grep', { pattern: 'needle', path: '.', include: 'src/*.ts' })).output).toContain('src/deep.ts:3:');
    expect((await ws.call('grep', { pattern: 'needle', path: '.', recursive: false })).output).not.toContain('src/');
    expect((await ws.call('grep', { pattern: 'needle', path: 'src/deep.ts' })).output).toBe(
      'src/deep.ts:3:needle three\nsrc/deep.ts:7:needle seven\n[2 matches in 1 file.]',
    );
    expect((await ws.call('grep', { pattern: 'absent', path: '.' })).output).toBe('No matches for "absent" in ..');
  });

  test.skipIf(!available)('adds context lines and separates groups with --', async () => {
    const ws = await setUp(engine);
    const result = await ws.call('grep', { pattern: 'needle', path: 'src', context: 1 });
    expect(result.output).toBe(
      [
        'src/deep.ts-2-two',
        'src/deep.ts:3:needle three',
        'src/deep.ts-4-four',
        '--',
        'src/deep.ts-6-six',
        'src/deep.ts:7:needle seven',
        'src/deep.ts-8-eight',
        '[2 matches in 1 file.]',
      ].join('\n'),
    );
  });

  test.skipIf(!available)('stops at max_matches and says so', async () => {
    const ws = await setUp(engine, { 'many.txt': 'hit\n'.repeat(50), 'more.txt': 'hit\n' });
    const result = await ws.call('grep', { pattern: 'hit', path: '.', max_matches: 5 });
    expect(result.output.split('\n').slice(0, 5)).toEqual([
      'many.txt:1:hit',
      'many.txt:2:hit',
      'many.txt:3:hit',
      'many.txt:4:hit',
      'many.txt:5:hit',
    ]);
    expect(result.output).toContain('[Stopped at 5 matches (max_matches=5); there are more.');
  });

  test.skipIf(!available)('leaves out blocked paths (any case) and hard links inside the tree', async () => {
    const ws = await setUp(engine, { 'ok.txt': 'needle ok\n', Private: { 'key.txt': 'needle key\n' } }, { blockedPaths: ['private'] });
    await link(ws.dir.join('outside', 'secret.txt'), ws.dir.join('work', 'hard.txt'));
    const result = await ws.call('grep', { pattern: 'needle', path: '.' });
    expect(result.output).toBe('ok.txt:1:needle ok\n[1 match in 1 file.]');
  });

  test.skipIf(!available)('answers catastrophic patterns on a small file, and the process stays responsive meanwhile', async () => {
    const ws = await setUp(engine, { 'evil.txt': `${'a'.repeat(40)}!\n${'\t'.repeat(30)}x\n`, 'other.txt': 'needle\n' });
    // Linear-time engines (ripgrep's, and RE2 for the built-in one) answer these at once, with
    // the default options: no time limit has to stop them.
    for (const pattern of ['(a+)+$', '^(?:[\\s\\S]*)*\\x00', '(\\s*)*\\s*y', '(a|a)+$']) {
      const search = ws.call('grep', { pattern, path: 'evil.txt' });
      const other = await ws.call('read_file', { path: 'other.txt' });
      expect(other.success).toBe(true);
      const result = await search;
      expect(result.error).toBe('');
      expect(result.output).toBe(`No matches for ${JSON.stringify(pattern)} in evil.txt.`);
    }
  });

  test.skipIf(!available)('stops a backtracking-only pattern (look-ahead) at the 5 s limit; other calls complete meanwhile', async () => {
    expect(DEFAULT_REGEX_TIMEOUT_MS).toBeLessThanOrEqual(5000);
    const ws = await setUp(engine, { 'evil.txt': `${'a'.repeat(40)}!\n`, 'other.txt': 'needle\n' });
    expect(resolveFileSkillOptions(ws.services).regexTimeoutMs).toBe(DEFAULT_REGEX_TIMEOUT_MS);
    let settled = false;
    const search = ws.call('grep', { pattern: '(?=(a+)+$)a', path: '.' }).finally(() => {
      settled = true;
    });
    const other = await ws.call('grep', { pattern: 'needle', path: 'other.txt' });
    expect(other.output).toBe('other.txt:1:needle\n[1 match in 1 file.]');
    expect(settled).toBe(false);
    const result = await search;
    expect(result.kind).toBe('timeout');
    expect(result.error).toContain('took too long');
  });

  test.each([99, 100, 101, 150])(
    `says that matches were left out exactly when they were (%i hits, max_matches=100, ${engine})`,
    async (hits) => {
      if (!available) return;
      const ws = await setUp(engine, { 'hits.txt': 'hit\n'.repeat(hits) });
      const result = await ws.call('grep', { pattern: 'hit', path: '.' });
      const shown = Math.min(hits, 100);
      expect(result.data).toMatchObject({ matches: shown, truncated: hits > 100 });
      expect(result.output.split('\n')).toHaveLength(shown + 1);
      if (hits > 100) expect(result.output).toContain('[Stopped at 100 matches (max_matches=100); there are more.');
      else {
        expect(result.output).not.toContain('there are more');
        expect(result.output).toContain(`[${hits} matches in 1 file.]`);
      }
    },
  );

  test.skipIf(!available)('says that matches were left out when they are spread over files', async () => {
    const ws = await setUp(engine, { 'a.txt': 'hit\n'.repeat(60), 'b.txt': 'hit\n'.repeat(40), 'c.txt': 'hit\n' });
    const exact = await ws.call('grep', { pattern: 'hit', path: '.', include: '[ab].txt' });
    expect(exact.output).toContain('[100 matches in 2 files.]');
    const more = await ws.call('grep', { pattern: 'hit', path: '.' });
    expect(more.output).toContain('[Stopped at 100 matches (max_matches=100); there are more.');
  });

  test.skipIf(!available)('numbers lines correctly in files larger than one 8 MB read, with context across the border', async () => {
    const lines = Array.from({ length: 90_000 }, (_, index) => `${String(index + 1).padStart(8, '0')} ${'x'.repeat(90)}`);
    lines[84_999] = 'needle far';
    lines[1] = 'needle near';
    const ws = await setUp(engine, { 'big.txt': `${lines.join('\n')}\n` });
    for (const pattern of ['needle', 'need?le']) {
      const result = await ws.call('grep', { pattern, path: 'big.txt', context: 1 });
      expect(result.output.split('\n')).toEqual([
        `big.txt-1-00000001 ${'x'.repeat(90)}`,
        'big.txt:2:needle near',
        `big.txt-3-00000003 ${'x'.repeat(90)}`,
        '--',
        `big.txt-84999-00084999 ${'x'.repeat(90)}`,
        'big.txt:85000:needle far',
        `big.txt-85001-00085001 ${'x'.repeat(90)}`,
        '[2 matches in 1 file.]',
      ]);
    }
  });

  test.skipIf(!available)('shows invalid UTF-8 as replacement characters and cuts long lines', async () => {
    const ws = await setUp(
      engine,
      { 'l.txt': new Uint8Array([...Buffer.from('caf'), 0xe9, ...Buffer.from(' needle\n')]), 'long.txt': `needle${'x'.repeat(300)}\n` },
      { fileSkillOptions: { maxLineLength: 50 } },
    );
    const result = await ws.call('grep', { pattern: 'needle', path: '.' });
    expect(result.output).toContain('l.txt:1:caf\uFFFD needle');
    expect(result.output).toContain(`long.txt:1:needle${'x'.repeat(44)}… [line cut at 50 characters]`);
  });
});

test.skipIf(!hasRipgrep)('both engines give the same output for the same searches', async () => {
  const searches = [
    { pattern: 'needle', path: '.' },
    { pattern: 'NEEDLE', path: '.', ignore_case: true, context: 2 },
    { pattern: '^n', path: 'src', context: 1 },
    { pattern: 'needle', path: '.', include: '*.ts', max_matches: 3 },
  ];
  const outputs: Record<string, string[]> = {};
  for (const [engine] of engines) {
    const ws = await setUp(engine);
    outputs[engine] = [];
    for (const search of searches) outputs[engine].push((await ws.call('grep', search)).output);
    await ws.dir.cleanup();
    workspace = undefined;
  }
  expect(outputs.ripgrep).toEqual(outputs.builtin);
});

test.skipIf(!hasRipgrep)('a pattern ripgrep cannot parse (look-around) falls back to the built-in engine', async () => {
  const ws = await setUp('ripgrep', { 'a.txt': 'foobar\nfoobaz\n' });
  const result = await ws.call('grep', { pattern: 'foo(?=baz)', path: '.' });
  expect(result.output).toBe('a.txt:2:foobaz\n[1 match in 1 file.]');
  expect(result.data).toMatchObject({ engine: 'builtin' });
});

test('the engine can be chosen with NEXUS_GREP_ENGINE', async () => {
  const previous = process.env.NEXUS_GREP_ENGINE;
  process.env.NEXUS_GREP_ENGINE = 'builtin';
  try {
    workspace = await createWorkspace({ 'a.txt': 'needle\n' });
    expect((await workspace.call('grep', { pattern: 'needle', path: '.' })).data).toMatchObject({ engine: 'builtin' });
  } finally {
    if (previous === undefined) delete process.env.NEXUS_GREP_ENGINE;
    else process.env.NEXUS_GREP_ENGINE = previous;
  }
});

describe('a line longer than the 8 MiB the built-in engine reads at once', () => {
  // Line 2 holds 20 MiB: "zéz" with the two bytes of é on either side of the file's 16 MiB mark,
  // then two needles (the first across the 17 MiB mark), and it ends " end" with a CRLF.
  const MiB = 1024 * 1024;
  const parts = ['start', 'x'.repeat(16 * MiB - 13), 'zéz', 'x'.repeat(MiB + 2), 'needle', 'x'.repeat(MiB), 'needle'];
  const line = `${parts.join('')}${'x'.repeat(20 * MiB - parts.join('').length - 4)} end`;
  const tree: Tree = { 'big.txt': Buffer.from(`first\n${line}\r\nneedle after\nlast\n`) };
  /** Line 2 as shown: `maxLineLength` (2,000) characters around the match at `start` of `length` characters. */
  const around = (start: number, length: number) => {
    const from = start - Math.floor((2000 - length) / 2);
    const to = Math.min(line.length, from + 2000);
    return `big.txt:2:…[cut ${from} characters]…${line.slice(from, to)}${to < line.length ? `…[cut ${line.length - to} characters]…` : ''}`;
  };
  const firstNeedle = line.indexOf('needle');

  test("finds matches anywhere in it, shows the line cut around the first match, and gives ripgrep's answer", async () => {
    expect(Buffer.from(`first\n${line}`).indexOf('é')).toBe(16 * MiB - 1);
    expect(firstNeedle).toBe(17 * MiB - 3);
    const ws = await setUp('builtin', tree);
    const searches = [
      { pattern: 'needle', path: '.' },
      { pattern: 'ne+dle', path: '.' },
      { pattern: 'zéz', path: '.' },
      { pattern: ' end$', path: '.' },
      { pattern: 'x$', path: '.' },
      { pattern: '^x', path: '.' },
    ];
    const results = [];
    for (const search of searches) results.push(await ws.call('grep', search));
    const needles = [around(firstNeedle, 6), 'big.txt:3:needle after', '[2 matches in 1 file.]'].join('\n');
    expect(results.map((result) => result.output)).toEqual([
      needles,
      needles,
      [around(line.indexOf('zéz'), 3), '[1 match in 1 file.]'].join('\n'),
      [around(line.length - 4, 4), '[1 match in 1 file.]'].join('\n'),
      'No matches for "x$" in ..',
      'No matches for "^x" in ..',
    ]);
    // A look-behind runs on JavaScript's engine, over the same windows.
    expect((await ws.call('grep', { pattern: '(?<!y)needle', path: '.' })).output).toBe(needles);
    if (!hasRipgrep) return;
    const ripgrep = await createWorkspace(tree, { fileSkillOptions: { grepEngine: 'ripgrep' } });
    try {
      for (const [index, search] of searches.entries()) {
        const answer = (await ripgrep.call('grep', search)).data as { matches: number; results: { path: string; line: number }[] };
        const ours = results[index]?.data as typeof answer;
        expect({ matches: ours.matches, lines: ours.results.map(({ path, line }) => `${path}:${line}`) }).toEqual({
          matches: answer.matches,
          lines: answer.results.map(({ path, line }) => `${path}:${line}`),
        });
      }
    } finally {
      await ripgrep.dir.cleanup();
    }
  });

  test('shows it cut at its start as a context line, and counts it as one match against max_matches', async () => {
    const ws = await setUp('builtin', tree);
    expect((await ws.call('grep', { pattern: 'after', path: '.', context: 1 })).output.split('\n')).toEqual([
      `big.txt-2-start${'x'.repeat(1995)}… [line cut at 2000 characters]`,
      'big.txt:3:needle after',
      'big.txt-4-last',
      '[1 match in 1 file.]',
    ]);
    const first = await ws.call('grep', { pattern: 'needle', path: '.', context: 1, max_matches: 1 });
    expect(first.output.split('\n')).toEqual([
      'big.txt-1-first',
      around(firstNeedle, 6),
      '[Stopped at 1 matches (max_matches=1); there are more. Narrow the pattern, path or include.]',
    ]);
  });
});

test('the built-in engine shows a long line around its first match when the match is past the first maxLineLength characters', async () => {
  const ws = await setUp(
    'builtin',
    { 'long.txt': `${'x'.repeat(300)}needle${'y'.repeat(300)}needle\n`, 'early.txt': `ab needle ${'y'.repeat(300)}\n` },
    { fileSkillOptions: { maxLineLength: 50 } },
  );
  expect((await ws.call('grep', { pattern: 'needle', path: '.' })).output.split('\n')).toEqual([
    `early.txt:1:ab needle ${'y'.repeat(40)}… [line cut at 50 characters]`,
    `long.txt:1:…[cut 278 characters]…${'x'.repeat(22)}needle${'y'.repeat(22)}…[cut 284 characters]…`,
    '[2 matches in 2 files.]',
  ]);
});

test('the built-in engine gives a look-behind, a back-reference and a named back-reference their JavaScript meaning', async () => {
  const ws = await setUp('builtin', { 'a.txt': 'abk<n>\nabab\nfoobar\nbar\n' });
  expect((await ws.call('grep', { pattern: '(?<n>ab)\\k<n>', path: '.' })).output).toBe('a.txt:2:abab\n[1 match in 1 file.]');
  expect((await ws.call('grep', { pattern: '(ab)\\1', path: '.' })).output).toBe('a.txt:2:abab\n[1 match in 1 file.]');
  expect((await ws.call('grep', { pattern: '(?<!foo)bar', path: '.' })).output).toBe('a.txt:4:bar\n[1 match in 1 file.]');
});

test('the built-in engine matches $ at the end of CRLF lines and finds lines after the first match of a chunk', async () => {
  const ws = await setUp('builtin', {
    'crlf.txt': 'one end\r\ntwo\r\nthree end\r\n',
    'many.txt': `${'filler line\n'.repeat(5000)}end\n${'filler\n'.repeat(5000)}last end\n`,
  });
  expect((await ws.call('grep', { pattern: 'end$', path: '.' })).output).toBe(
    ['crlf.txt:1:one end', 'crlf.txt:3:three end', 'many.txt:5001:end', 'many.txt:10002:last end', '[4 matches in 2 files.]'].join('\n'),
  );
});
