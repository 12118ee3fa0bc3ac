import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

const numbered = (count: number, from = 1) => `${Array.from({ length: count }, (_, index) => `line ${from + index}`).join('\n')}\n`;

describe('read_file', () => {
  test('numbers lines in the format edit_lines uses, and pages with offset and limit', async () => {
    workspace = await createWorkspace({ 'a.txt': numbered(10) });
    const all = await workspace.call('read_file', { path: 'a.txt' });
    expect(all.output.split('\n')[0]).toBe('     1\tline 1');
    expect(all.output).toContain('    10\tline 10');
    expect(all.output).not.toContain('Continue');
    const page = await workspace.call('read_file', { path: 'a.txt', offset: 4, limit: 3 });
    expect(page.output).toBe(
      '     4\tline 4\n     5\tline 5\n     6\tline 6\n[Showing lines 4–6; the limit was reached and the file goes on. Continue with offset=7.]',
    );
    expect(page.data).toMatchObject({ firstLine: 4, lastLine: 6, nextLine: 7 });
    const tail = await workspace.call('read_file', { path: 'a.txt', offset: 9, limit: 5 });
    expect(tail.output).toBe('     9\tline 9\n    10\tline 10');
    const past = await workspace.call('read_file', { path: 'a.txt', offset: 50 });
    expect(past.output).toContain('has 10 line(s); offset 50 is past the end');
  });

  test('strips CR of CRLF lines, reads a last line without a newline, and reports an empty file', async () => {
    workspace = await createWorkspace({ 'crlf.txt': 'a\r\nb\r\nlast', 'empty.txt': '' });
    expect((await workspace.call('read_file', { path: 'crlf.txt' })).output).toBe('     1\ta\n     2\tb\n     3\tlast');
    expect((await workspace.call('read_file', { path: 'empty.txt' })).output).toContain('is empty');
  });

  test('caps output by size and says which offset to continue from', async () => {
    workspace = await createWorkspace({ 'big.txt': numbered(2000) }, { fileSkillOptions: { maxReadBytes: 1000 } });
    const result = await workspace.call('read_file', { path: 'big.txt' });
    expect(Buffer.byteLength(result.output)).toBeLessThan(1300);
    const next = (result.data as { nextLine: number }).nextLine;
    expect(result.output).toContain(`output limit was reached and the file goes on. Continue with offset=${next}`);
    const more = await workspace.call('read_file', { path: 'big.txt', offset: next, limit: 1 });
    expect(more.output).toContain(`\tline ${next}`);
  });

  test('cuts very long lines', async () => {
    workspace = await createWorkspace({ 'long.txt': `${'x'.repeat(5000)}\nshort\n` }, { fileSkillOptions: { maxLineLength: 100 } });
    const result = await workspace.call('read_file', { path: 'long.txt' });
    expect(result.output).toContain(`${'x'.repeat(100)}… [line cut at 100 characters]`);
    expect(result.output).toContain('     2\tshort');
    expect(result.output).toContain('1 line(s) longer than 100 characters were cut');
  });

  test('refuses binary files clearly and shows invalid UTF-8 as replacement characters', async () => {
    workspace = await createWorkspace({
      'bin.dat': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]),
      'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'latin1-last.txt': new Uint8Array([0x6f, 0x6b, 0x0a, 0x63, 0x61, 0x66, 0xe9]),
    });
    const binary = await workspace.call('read_file', { path: 'bin.dat' });
    expect(binary.kind).toBe('invalid_input');
    expect(binary.error).toContain('is a binary file');
    const latin1 = await workspace.call('read_file', { path: 'latin1.txt' });
    expect(latin1.output).toContain('caf\uFFFD');
    expect(latin1.output).toContain('not valid UTF-8');
    expect((await workspace.call('read_file', { path: 'latin1-last.txt' })).output).toBe(
      '     1\tok\n     2\tcaf\uFFFD\n[Some bytes are not valid UTF-8 and are shown as \uFFFD.]',
    );
  });

  test('reads the head of a 2 GB file (sparse) without reading the rest', async () => {
    workspace = await createWorkspace({ 'huge.log': numbered(1000) });
    const handle = await open(workspace.dir.join('work', 'huge.log'), 'r+');
    await handle.truncate(2 * 1024 ** 3);
    await handle.close();
    const result = await workspace.call('read_file', { path: 'huge.log', limit: 100 });
    expect(result.success).toBe(true);
    expect(result.output.split('\n')).toHaveLength(101);
    expect(result.output).toContain('   100\tline 100');
    expect(result.output).toContain('Continue with offset=101');
  });

  test('reads across 64 KiB chunks: a character split by the border, a line longer than a chunk, a deep offset', async () => {
    // 65,535 bytes of short lines, so that the 2-byte "é" of the next line straddles byte 65,536.
    const filler = `${`${'a'.repeat(99)}\n`.repeat(655)}${'b'.repeat(34)}\n`;
    const content = `${filler}é and more\n${'y'.repeat(150_000)}\nafter the long line\nlast\n`;
    workspace = await createWorkspace({ 'chunks.txt': content });
    const border = await workspace.call('read_file', { path: 'chunks.txt', offset: 657, limit: 1 });
    expect(border.output).toBe(
      '   657\té and more\n[Showing lines 657–657; the limit was reached and the file goes on. Continue with offset=658.]',
    );
    const rest = await workspace.call('read_file', { path: 'chunks.txt', offset: 658 });
    expect(rest.output.split('\n')).toEqual([
      `   658\t${'y'.repeat(2000)}… [line cut at 2000 characters]`,
      '   659\tafter the long line',
      '   660\tlast',
      '[1 line(s) longer than 2000 characters were cut.]',
    ]);
    expect(rest.data).toMatchObject({ firstLine: 658, lastLine: 660, nextLine: null, totalLines: 660 });
  });

  test('reads a file whose size the kernel does not know (/proc) to its end', async () => {
    workspace = await createWorkspace({}, { preset: 'trusted' });
    const result = await workspace.call('read_file', { path: '/proc/self/status' });
    expect(result.output).toMatch(/^ {5}1\tName:/);
    expect(result.output).toContain('\tPid:');
    expect((result.data as { totalLines: number }).totalLines).toBeGreaterThan(5);
  });

  test('reports missing files and directories with the right kind', async () => {
    workspace = await createWorkspace({ sub: {} });
    expect((await workspace.call('read_file', { path: 'nope.txt' })).kind).toBe('not_found');
    const directory = await workspace.call('read_file', { path: 'sub' });
    expect(directory.kind).toBe('invalid_input');
    expect(directory.error).toContain('is a directory');
  });
});

describe('tail', () => {
  test('returns the last lines, reading backwards in chunks across chunk borders', async () => {
    const content = numbered(50_000);
    workspace = await createWorkspace({ 'log.txt': content, 'short.txt': 'only\n', 'nonl.txt': 'a\nb' });
    const result = await workspace.call('tail', { path: 'log.txt', lines: 3 });
    expect(result.output).toBe('line 49998\nline 49999\nline 50000');
    const many = await workspace.call('tail', { path: 'log.txt', lines: 9000 });
    expect(many.output.split('\n')).toHaveLength(9000);
    expect(many.output.split('\n')[0]).toBe('line 41001');
    expect((await workspace.call('tail', { path: 'short.txt' })).output).toBe('only');
    expect((await workspace.call('tail', { path: 'nonl.txt', lines: 1 })).output).toBe('b');
  });
});

describe('read_file and tail on a FIFO', () => {
  test('refuse it at once, without waiting for a writer', async () => {
    workspace = await createWorkspace({});
    const fifo = workspace.dir.join('work', 'pipe');
    execFileSync('mkfifo', [fifo]);
    const released = workspace.dir.join('released');
    // Should an open ever wait for a writer, this one comes after a while and leaves a mark, so
    // the test fails instead of hanging.
    const writer = spawn('sh', ['-c', 'sleep 30; : > "$2"; echo late > "$1"', 'writer', fifo, released], { stdio: 'ignore' });
    try {
      for (const tool of ['read_file', 'tail']) {
        const result = await workspace.call(tool, { path: 'pipe' });
        expect(result.kind, tool).toBe('invalid_input');
        expect(result.error).toContain('device, socket or pipe');
      }
      expect(existsSync(released)).toBe(false);
    } finally {
      writer.kill();
    }
  });
});

describe('deep directory trees', () => {
  test('glob, grep and list_directory answer for a tree nested past PATH_MAX, saying what they skipped', async () => {
    workspace = await createWorkspace({ 'top.txt': 'needle at the top\n' });
    const work = workspace.dir.join('work');
    // 300 levels of 20-character names: about 6,300 characters, past Linux's 4,096 PATH_MAX.
    execFileSync(
      'bash',
      ['-c', 'for i in $(seq 300); do mkdir d_abcdefghijklmnopq && cd d_abcdefghijklmnopq || exit 1; done; echo needle deep > deep.txt'],
      { cwd: work },
    );
    try {
      const glob = await workspace.call('glob', { pattern: '**/*.txt' });
      expect(glob.success, glob.error).toBe(true);
      expect(glob.output).toContain('top.txt');
      expect(glob.output).toMatch(/could not be read \(no permission, or nested too deep\)/);
      const grep = await workspace.call('grep', { pattern: 'needle', path: '.' });
      expect(grep.success, grep.error).toBe(true);
      expect(grep.output).toContain('top.txt');
      expect((await workspace.call('list_directory', { path: '.' })).output).toContain('d_abcdefghijklmnopq/');
    } finally {
      execFileSync('rm', ['-rf', 'd_abcdefghijklmnopq'], { cwd: work });
    }
  });
});

describe('file_info', () => {
  test('shows type, size, permissions and the symlink a path went through', async () => {
    workspace = await createWorkspace({ 'a.sh': { content: '#!/bin/sh\n', mode: 0o750 }, link: { symlink: 'a.sh' }, dir: {} });
    const file = await workspace.call('file_info', { path: 'a.sh' });
    expect(file.data).toMatchObject({ path: 'a.sh', type: 'file', size: 10, permissions: '-rwxr-x---', mode: '0750' });
    const link = await workspace.call('file_info', { path: 'link' });
    expect(link.data).toMatchObject({ path: 'a.sh', symlinkTarget: 'a.sh' });
    expect((await workspace.call('file_info', { path: 'dir' })).data).toMatchObject({ type: 'directory' });
  });
});

describe('list_directory', () => {
  test('lists sorted entries, hides dotfiles unless all=true, and shows details with long=true', async () => {
    workspace = await createWorkspace({ 'b.txt': 'bb', 'a.txt': 'a', '.hidden': '', sub: {}, link: { symlink: 'a.txt' } });
    expect((await workspace.call('list_directory', {})).output).toBe('a.txt\nb.txt\nlink@\nsub/');
    expect((await workspace.call('list_directory', { all: true })).output.split('\n')[0]).toBe('.hidden');
    const long = (await workspace.call('list_directory', { long: true })).output.split('\n');
    expect(long[1]).toMatch(/^-rw-r--r--\s+2 \d{4}-\d\d-\d\d \d\d:\d\d b\.txt$/);
    expect(long[2]).toMatch(/^lrwxrwxrwx .* link -> a\.txt$/);
  });

  test('caps the listing and says so', async () => {
    workspace = await createWorkspace({});
    const many = workspace.dir.join('work', 'many');
    await mkdir(many);
    await Promise.all(Array.from({ length: 1005 }, (_, index) => writeFile(`${many}/f${String(index).padStart(4, '0')}`, '')));
    const result = await workspace.call('list_directory', { path: 'many' });
    expect(result.output.split('\n')).toHaveLength(1001);
    expect(result.output).toContain('[Showing 1000 of 1005 entries');
  });

  test('leaves blocked entries out', async () => {
    workspace = await createWorkspace({ 'a.txt': '', secrets: { 'k.txt': '' } }, { blockedPaths: ['secrets'] });
    const result = await workspace.call('list_directory', {});
    expect(result.output).toBe('a.txt\n[1 blocked entry not shown.]');
  });
});

describe('glob', () => {
  const tree = {
    'README.md': '',
    src: { 'a.ts': '', 'b.js': '', deep: { 'c.ts': '', '.hidden.ts': '' } },
    dist: { 'a.ts': '' },
    node_modules: { pkg: { 'index.ts': '' } },
    '.git': { 'HEAD.ts': '' },
    'link-dir': { symlink: 'src' },
  };

  test('matches names at any depth, or whole paths, sorted, skipping .git, node_modules and symlinks', async () => {
    workspace = await createWorkspace(tree);
    expect((await workspace.call('glob', { pattern: '*.ts' })).output).toBe('dist/a.ts\nsrc/a.ts\nsrc/deep/.hidden.ts\nsrc/deep/c.ts');
    expect((await workspace.call('glob', { pattern: 'src/**/*.ts' })).output).toBe('src/a.ts\nsrc/deep/.hidden.ts\nsrc/deep/c.ts');
    expect((await workspace.call('glob', { pattern: '*.ts', path: 'src/deep' })).output).toBe('src/deep/.hidden.ts\nsrc/deep/c.ts');
    expect((await workspace.call('glob', { pattern: 'node_modules/**/*.ts' })).output).toBe('node_modules/pkg/index.ts');
    expect((await workspace.call('glob', { pattern: '*.py' })).output).toContain('No files match');
  });

  test('excludes patterns and caps the results, saying so', async () => {
    workspace = await createWorkspace(tree);
    expect((await workspace.call('glob', { pattern: '*.ts', exclude: ['dist/**', '.*'] })).output).toBe('src/a.ts\nsrc/deep/c.ts');
    expect((await workspace.call('glob', { pattern: '*.ts', exclude: 'dist' })).output).toBe(
      'src/a.ts\nsrc/deep/.hidden.ts\nsrc/deep/c.ts',
    );
    const capped = await workspace.call('glob', { pattern: '*.ts', max_results: 2 });
    expect(capped.output).toBe('dist/a.ts\nsrc/a.ts\n[Showing 2 of 4 matches; narrow the pattern or raise max_results.]');
    expect(capped.data).toMatchObject({ total: 4, truncated: true });
  });

  test('does not list files under blocked paths', async () => {
    workspace = await createWorkspace(tree, { blockedPaths: ['src/deep', 'dist/A.TS'] });
    expect((await workspace.call('glob', { pattern: '*.ts' })).output).toBe('src/a.ts');
  });
});
