import { readlinkSync } from 'node:fs';
import { link, mkdir, readFile, realpath, rename, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createSymlinkFarm, type SymlinkFarm, testdir } from '@nexus/test-utils';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateProcessEntry, isWithin, normalizePath, PathSecurityError, resolveRealPath, validatePath } from './index.js';

describe('normalizePath', () => {
  it('expands ~, converts backslashes and resolves against cwd', () => {
    expect(normalizePath('~', '/x')).toBe(homedir());
    expect(normalizePath('~/notes.txt', '/x')).toBe(join(homedir(), 'notes.txt'));
    expect(normalizePath('a\\b\\c.txt', '/work')).toBe('/work/a/b/c.txt');
    expect(normalizePath('../up', '/work/app')).toBe('/work/up');
  });

  it('refuses null bytes and ~user', () => {
    expect(() => normalizePath('a\0b', '/x')).toThrow(PathSecurityError);
    expect(() => normalizePath('~root/.ssh', '/x')).toThrow(/~user/);
  });
});

describe('isWithin', () => {
  it('compares whole segments', () => {
    expect(isWithin('/work/app', '/work/app')).toBe(true);
    expect(isWithin('/work/app/x', '/work/app')).toBe(true);
    expect(isWithin('/work/app-evil', '/work/app')).toBe(false);
    expect(isWithin('/anything', '/')).toBe(true);
  });
});

describe('validatePath against every Linux path class of DESIGN §6', () => {
  let farm: SymlinkFarm;
  let options: { cwd: string; allowedPaths: string[]; blockedPaths: string[] };
  beforeAll(async () => {
    farm = await createSymlinkFarm();
    options = { cwd: farm.inside, allowedPaths: [farm.inside], blockedPaths: [farm.blocked] };
  });
  afterAll(() => farm.cleanup());

  const refused: Array<[string, (farm: SymlinkFarm) => string]> = [
    ['.. out of the sandbox', () => '../outside/secret.txt'],
    ['deep .. chain', () => 'sub/deep/../../../outside/secret.txt'],
    ['absolute path outside', (f) => join(f.outside, 'secret.txt')],
    ['absolute system path', () => '/etc/passwd'],
    ['prefix sibling', (f) => join(f.prefixSibling, 'evil.txt')],
    ['prefix sibling via ..', () => '../inside-evil/evil.txt'],
    ['symlink to an outside file', () => 'link-out-file'],
    ['symlink to an outside directory', () => 'link-out-dir/secret.txt'],
    ['relative symlink to an outside file', () => 'link-out-rel-file'],
    ['symlink to the prefix sibling', () => 'link-prefix/evil.txt'],
    ['dangling symlink pointing outside (write target)', () => 'link-dangling-out'],
    ['dangling symlink into a missing outside directory', () => 'link-dangling-out-dir'],
    ['chained symlinks', () => 'link-chain-1/secret.txt'],
    ['symlinked parent directory', () => 'sub/deep/link-escape/secret.txt'],
    ['.. after a symlink climbs from the target', () => 'sub/link-upup/outside/secret.txt'],
    ['symlink to /', () => 'link-root/etc/passwd'],
    ['/proc/self/root', () => '/proc/self/root/etc/passwd'],
    ['symlink to /proc/self/root', () => 'link-proc/etc/passwd'],
    ['blocked directory', () => 'blocked/key.txt'],
    ['blocked directory in other case', () => 'BLOCKED/key.txt'],
    ['blocked directory in full-width letters (Unicode compatibility form)', () => 'ｂｌｏｃｋｅｄ/key.txt'],
    ['blocked directory through a symlink', () => 'link-blocked/key.txt'],
    ['symlink to a blocked file', () => 'link-blocked-file'],
    ['~ expands outside the sandbox', () => '~/.bashrc'],
    ['backslashes', () => '..\\outside\\secret.txt'],
    ['null byte', () => 'file.txt\0../../outside/secret.txt'],
    ['symlink loop', () => 'link-loop-a'],
    ['a missing component, then .. back to a symlink out', () => 'missing/../link-proc/root'],
    ['a missing directory chain climbed back to a link', () => 'no/such/../../link-out-dir/secret.txt'],
  ];

  it.each(refused)('refuses %s', async (_name, makePath) => {
    await expect(validatePath(makePath(farm), options)).rejects.toSatisfy((error) => PathSecurityError.isInstance(error));
  });

  const accepted: Array<[string, string, (farm: SymlinkFarm) => string]> = [
    ['a plain file', 'file.txt', (f) => join(f.inside, 'file.txt')],
    ['a symlink to an inside file', 'link-in-file', (f) => join(f.inside, 'file.txt')],
    ['a symlink to an inside directory', 'link-in-dir/deep/f.txt', (f) => join(f.inside, 'sub/deep/f.txt')],
    ['.. that stays inside', 'sub/deep/../../file.txt', (f) => join(f.inside, 'file.txt')],
    ['a missing write target', 'new/dir/file.txt', (f) => join(f.inside, 'new/dir/file.txt')],
    ['a dangling symlink pointing inside', 'link-dangling-in', (f) => join(f.inside, 'missing.txt')],
    ['a symlink to .. that lands inside', 'sub/link-up/file.txt', (f) => join(f.inside, 'file.txt')],
  ];

  it.each(accepted)('accepts %s and returns the real path', async (_name, path, expected) => {
    await expect(validatePath(path, options)).resolves.toBe(expected(farm));
  });

  it('refuses a hard link to an outside file while a sandbox is in force', async () => {
    const hardLink = join(farm.inside, 'hard-link.txt');
    await link(join(farm.outside, 'secret.txt'), hardLink).catch(() => {});
    await expect(validatePath('hard-link.txt', options)).rejects.toThrow(/hard links/);
    await expect(validatePath('hard-link.txt', { ...options, allowedPaths: null })).resolves.toBe(hardLink);
  });

  it('with followFinalLink: false, takes a symlink itself as the subject, never its parent directories', async () => {
    await expect(validatePath('link-out-file', { ...options, followFinalLink: false })).resolves.toBe(join(farm.inside, 'link-out-file'));
    await expect(validatePath('link-dangling-out', { ...options, followFinalLink: false, mustExist: true })).resolves.toBe(
      join(farm.inside, 'link-dangling-out'),
    );
    await expect(validatePath('link-out-dir/secret.txt', { ...options, followFinalLink: false })).rejects.toSatisfy((error: unknown) =>
      PathSecurityError.isInstance(error),
    );
    await expect(validatePath('sub/link-upup/..', { ...options, followFinalLink: false })).rejects.toSatisfy((error: unknown) =>
      PathSecurityError.isInstance(error),
    );
  });

  it('resolves .. physically: a .. after a symlink climbs from the link target', async () => {
    // link-in-abs → inside/sub/deep, so link-in-abs/.. is inside/sub (lexically it would be inside).
    await expect(validatePath('link-in-abs/../deep/f.txt', options)).resolves.toBe(join(farm.inside, 'sub/deep/f.txt'));
    await expect(validatePath('link-out-dir/../inside/file.txt', options)).resolves.toBe(join(farm.inside, 'file.txt'));
    await expect(validatePath('link-out-dir/../outside/secret.txt', options)).rejects.toSatisfy((error: unknown) =>
      PathSecurityError.isInstance(error),
    );
  });

  it('refuses a blocked path at any level, even with no sandbox', async () => {
    await expect(validatePath('blocked/key.txt', { ...options, allowedPaths: null })).rejects.toThrow(/blocked/);
  });

  it('with mustExist, reports a missing file as not_found', async () => {
    await expect(validatePath('missing.txt', { ...options, mustExist: true })).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('validatePath — what a process keeps from other users in /proc (its environment, memory)', () => {
  // This thread's id, as /proc/thread-self names it (`<pid>/task/<tid>`).
  const tid = readlinkSync('/proc/thread-self').split('/').pop() as string;
  const { pid, ppid } = process;
  const refused: Array<[string, string]> = [
    ['/proc/self/environ', '/proc/self/environ'],
    ['/proc/thread-self/environ', '/proc/thread-self/environ'],
    ['/proc/<own pid>/environ', `/proc/${pid}/environ`],
    ['/proc/self/task/<tid>/environ', `/proc/self/task/${tid}/environ`],
    ['/proc/<pid>/task/<tid>/mem', `/proc/${pid}/task/${tid}/mem`],
    ['/proc/self/mem', '/proc/self/mem'],
    ['/proc/self/auxv', '/proc/self/auxv'],
    ['/proc/self/pagemap', '/proc/self/pagemap'],
    ['/proc/self/fd (the directory)', '/proc/self/fd'],
    ['/proc/self/map_files', '/proc/self/map_files'],
    ['the parent process, which holds the same keys', `/proc/${ppid}/environ`],
    ['through /proc/self/root', '/proc/self/root/proc/self/environ'],
    ['with .. and .', '/proc/self/task/../././environ'],
  ];

  it.each(refused)('refuses %s at any level, with no sandbox and no blocked path', async (_name, path) => {
    await expect(validatePath(path)).rejects.toSatisfy((error) => PathSecurityError.isInstance(error));
  });

  it('refuses it through a symlink, and as a write target', async () => {
    await using dir = await testdir({ 'link-environ': { symlink: '/proc/self/environ' }, 'link-self': { symlink: `/proc/${pid}` } });
    for (const path of ['link-environ', 'link-self/mem', 'link-self/task/../environ']) {
      await expect(validatePath(path, { cwd: dir.path })).rejects.toThrow(/keeps from other users/);
    }
    await expect(validatePath('/proc/self/mem', { mustExist: true })).rejects.toThrow(/keeps from other users/);
  });

  it('cannot be aliased by a hard link, which the kernel never makes into /proc', async () => {
    await using dir = await testdir({});
    await expect(link('/proc/self/environ', dir.join('environ'))).rejects.toMatchObject({ code: 'EXDEV' });
    await expect(link(`/proc/${pid}/mem`, dir.join('mem'))).rejects.toMatchObject({ code: 'EXDEV' });
  });

  it('accepts what any user may read: /proc/self/status, cmdline, the /proc/self directory itself', async () => {
    await expect(validatePath('/proc/self/status')).resolves.toBe(`/proc/${pid}/status`);
    await expect(validatePath('/proc/thread-self/cmdline')).resolves.toBe(`/proc/${pid}/task/${tid}/cmdline`);
    await expect(validatePath('/proc/self')).resolves.toBe(`/proc/${pid}`);
    await expect(validatePath('/proc/cpuinfo')).resolves.toBe('/proc/cpuinfo');
    expect(isPrivateProcessEntry(`/proc/${pid}/status`)).toBe(false);
    expect(isPrivateProcessEntry(`/proc/${pid}/environ`)).toBe(true);
  });
});

describe('validatePath — property: nothing accepted escapes', () => {
  let farm: SymlinkFarm;
  let roots: { inside: string; blocked: string };
  beforeAll(async () => {
    farm = await createSymlinkFarm();
    roots = { inside: await realpath(farm.inside), blocked: await realpath(farm.blocked) };
  });
  afterAll(() => farm.cleanup());

  const segment = fc.constantFrom(
    '..',
    '.',
    'sub',
    'deep',
    'file.txt',
    'missing',
    'blocked',
    'BLOCKED',
    'outside',
    'inside',
    'inside-evil',
    'secret.txt',
    'link-in-dir',
    'link-out-dir',
    'link-chain-1',
    'link-dangling-out',
    'link-dangling-out-dir',
    'link-up',
    'link-upup',
    'link-escape',
    'link-root',
    'link-proc',
    'link-blocked',
    'etc',
    'proc',
    'self',
    'root',
    '~',
  );

  it('every accepted path resolves inside the allowed root and outside the blocked one', async () => {
    const seen = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('relative', 'absolute-inside', 'absolute-root'),
        async (parts, anchor) => {
          const relative = parts.join('/');
          const path = anchor === 'relative' ? relative : anchor === 'absolute-inside' ? `${farm.inside}/${relative}` : `/${relative}`;
          let accepted: string;
          try {
            accepted = await validatePath(path, { cwd: farm.inside, allowedPaths: [farm.inside], blockedPaths: [farm.blocked] });
          } catch (error) {
            if (!PathSecurityError.isInstance(error)) throw error;
            seen.refused++;
            return;
          }
          seen.accepted++;
          // What the kernel would really reach: resolve again independently of the accepted string.
          const reached = await resolveRealPath(accepted);
          expect(reached).toBe(accepted);
          expect(isWithin(reached, roots.inside)).toBe(true);
          expect(isWithin(reached.toLowerCase(), roots.blocked.toLowerCase())).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
    // The generator must exercise both outcomes, or the property proves nothing.
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
  });
});

describe('validatePath — allowed roots resolved with the path', () => {
  it('resolves a root that is a symlink, or was swapped for one, to where it leads at the time of the call', async () => {
    await using dir = await testdir({
      real: { 'f.txt': 'x' },
      outside: { 'secret.txt': 'y' },
      root: { 'f.txt': 'z' },
      alias: { symlink: 'real' },
    });
    const through = { allowedPaths: [dir.join('alias')] };
    await expect(validatePath(dir.join('alias', 'f.txt'), through)).resolves.toBe(dir.join('real', 'f.txt'));
    await expect(validatePath(dir.join('real', 'f.txt'), through)).resolves.toBe(dir.join('real', 'f.txt'));
    await expect(validatePath(dir.join('alias', '..', 'outside', 'secret.txt'), through)).rejects.toThrow(/outside the allowed/);
    await expect(validatePath(dir.join('outside', 'secret.txt'), through)).rejects.toThrow(/outside the allowed/);

    const swapped = { allowedPaths: [dir.join('root')] };
    await expect(validatePath(dir.join('root', 'f.txt'), swapped)).resolves.toBe(dir.join('root', 'f.txt'));
    await rename(dir.join('root'), dir.join('moved'));
    await symlink(dir.join('real'), dir.join('root'));
    await expect(validatePath(dir.join('moved', 'f.txt'), swapped)).rejects.toThrow(/outside the allowed/);
    await expect(validatePath(dir.join('root', 'f.txt'), swapped)).resolves.toBe(dir.join('real', 'f.txt'));
  });
});

describe('resolveRealPath', () => {
  it('matches realpath for existing paths, including symlinked parents', async () => {
    await using dir = await testdir({ real: { 'f.txt': 'x' }, alias: { symlink: 'real' } });
    await mkdir(dir.join('real', 'nested'));
    await symlink('../f.txt', dir.join('real', 'nested', 'up'));
    for (const path of ['alias/f.txt', 'alias/nested/up', 'real/nested/../f.txt']) {
      expect(await resolveRealPath(dir.join(path))).toBe(await realpath(dir.join(path)));
    }
    await writeFile(dir.join('real', 'g.txt'), 'y');
    expect(await readFile(await resolveRealPath(dir.join('alias', 'g.txt')), 'utf8')).toBe('y');
  });
});
