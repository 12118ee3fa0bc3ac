import { spawn } from 'node:child_process';
import { lstat, mkdir, rename as move, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

/** Everything under `root` (names, kinds, contents, modes, link targets), to prove nothing changed. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const visit = async (directory: string, prefix: string) => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      const name = `${prefix}${entry.name}`;
      const stats = await lstat(path);
      if (entry.isSymbolicLink()) result[name] = `link:${await readlink(path)}`;
      else if (entry.isDirectory()) {
        result[name] = `dir:${stats.mode}`;
        await visit(path, `${name}/`);
      } else result[name] = `file:${stats.mode}:${(await readFile(path)).toString('base64')}`;
    }
  };
  await visit(root, '');
  return result;
}

const HOME_PROBE = 'nexus-skills-fs-attack-probe.txt';

/** The sandbox under attack: work/ is the agent's directory; outside/, work-evil/ and work/blocked must stay untouched. */
async function createTarget(): Promise<Workspace> {
  const workspace = await createWorkspace(
    {
      'inside.txt': 'top secret inside\n',
      blocked: { 'key.txt': 'top secret key\n' },
      'link-out-file': { symlink: '../outside/secret.txt' },
      'link-out-dir': { symlink: '../outside' },
      'link-dangling-out': { symlink: '../outside/created-by-attack.txt' },
      nested: { 'link-parent': { symlink: '../../outside' } },
    },
    {
      outside: { 'secret.txt': 'top secret\n', 'hard.txt': 'top secret hard\n', sub: { 's.txt': 'top secret sub\n' } },
      blockedPaths: ['blocked'],
    },
  );
  await writeFile(workspace.dir.join('work-evil.txt'), 'top secret sibling\n');
  await mkdir(workspace.dir.join('work-evil'));
  await writeFile(workspace.dir.join('work-evil', 'evil.txt'), 'top secret evil\n');
  const { link } = await import('node:fs/promises');
  await link(join(workspace.outside, 'hard.txt'), join(workspace.work, 'hard-out'));
  return workspace;
}

/** Each path class of DESIGN §6, as the path an attacker passes. */
function attacks(workspace: Workspace): Record<string, string> {
  const { outside, dir } = workspace;
  return {
    'dot-dot': '../outside/secret.txt',
    'absolute path': join(outside, 'secret.txt'),
    'prefix sibling': dir.join('work-evil', 'evil.txt'),
    'prefix sibling, relative': '../work-evil/evil.txt',
    'symlink to a file': 'link-out-file',
    'symlink to a directory': 'link-out-dir/secret.txt',
    'dangling symlink': 'link-dangling-out',
    'symlinked parent directory': 'nested/link-parent/sub/s.txt',
    'hard link to an outside file': 'hard-out',
    '/proc/self/root': `/proc/self/root${join(outside, 'secret.txt')}`,
    'null byte': 'inside.txt\0../outside/secret.txt',
    tilde: `~/${HOME_PROBE}`,
    backslashes: '..\\outside\\secret.txt',
    'blocked path in other case': 'BLOCKED/key.txt',
    'blocked path in full-width letters': 'ｂｌｏｃｋｅｄ/key.txt',
    'blocked path': 'blocked/key.txt',
  };
}

const DIFF = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-top secret\n+pwned\n';

/** How each skill is pointed at an attack path (copy_file and rename are attacked at both ends). */
const SKILLS: Record<string, (path: string) => Record<string, unknown>> = {
  read_file: (path) => ({ path }),
  tail: (path) => ({ path }),
  file_info: (path) => ({ path }),
  list_directory: (path) => ({ path }),
  glob: (path) => ({ pattern: '**/*', path }),
  grep: (path) => ({ pattern: 'secret', path }),
  write_file: (path) => ({ path, content: 'pwned\n' }),
  edit_file: (path) => ({ path, old_string: 'top secret', new_string: 'pwned' }),
  'edit_file (lines)': (path) => ({ path, start_line: 1, new_content: 'pwned' }),
  edit_lines: (path) => ({ path, start_line: 1, new_content: 'pwned' }),
  append_file: (path) => ({ path, content: 'pwned' }),
  regex_replace: (path) => ({ path, pattern: 'secret', replacement: 'pwned' }),
  patch: (target) => ({ target, diff: DIFF }),
  'patch (diff_file)': (diffFile) => ({ target: 'inside.txt', diff_file: diffFile }),
  'copy_file (source)': (source) => ({ source, destination: 'copied.txt' }),
  'copy_file (destination)': (destination) => ({ source: 'inside.txt', destination, overwrite: true }),
  mkdir: (path) => ({ path }),
  'rename (source)': (source) => ({ source, destination: 'moved.txt' }),
  'rename (destination)': (destination) => ({ source: 'inside.txt', destination, overwrite: true }),
};

const ATTACK_NAMES = Object.keys(
  attacks({ outside: '/o', dir: { join: (...parts: string[]) => join('/d', ...parts) } } as unknown as Workspace),
);
const cases = Object.keys(SKILLS).flatMap((skill) => ATTACK_NAMES.map((attack) => [skill, attack] as const));

let current: Workspace | undefined;
afterEach(async () => {
  await current?.dir.cleanup();
  current = undefined;
  await rm(join(homedir(), HOME_PROBE), { force: true });
});

describe('every file skill refuses every path escape and leaves the outside untouched', () => {
  test.each(cases)('%s × %s', async (skill, attack) => {
    current = await createTarget();
    const before = await snapshot(current.dir.path);
    const tool = skill.split(' ')[0] as string;
    const args = (SKILLS[skill] as (path: string) => Record<string, unknown>)(attacks(current)[attack] as string);
    const result = await current.call(tool, args);
    expect(result.kind, `${skill} ${attack}: ${result.text}`).toBe('forbidden');
    expect(result.output).not.toContain('top secret');
    const after = await snapshot(current.dir.path);
    // Only work/ may change, and only through a refused call, so nothing at all may change.
    expect(after).toEqual(before);
    await expect(lstat(join(homedir(), HOME_PROBE))).rejects.toThrow();
  });
});

describe('a path swapped for a symlink after the check is refused (trusted: the confirmation runs between check and use)', () => {
  const WRITES: Record<string, (path: string) => Record<string, unknown>> = {
    write_file: (path) => ({ path, content: 'pwned\n' }),
    edit_file: (path) => ({ path, old_string: 'shared', new_string: 'pwned' }),
    edit_lines: (path) => ({ path, start_line: 1, new_content: 'pwned' }),
    append_file: (path) => ({ path, content: 'pwned' }),
    regex_replace: (path) => ({ path, pattern: 'shared', replacement: 'pwned' }),
    patch: (target) => ({ target, diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-shared\n+pwned\n' }),
    'copy_file (destination)': (destination) => ({ source: 'inside.txt', destination, overwrite: true }),
    'rename (destination)': (destination) => ({ source: 'inside.txt', destination, overwrite: true }),
  };
  const swaps = {
    'the file': async (shared: string, outside: string) => {
      await rm(join(shared, 'target.txt'));
      await symlink(join(outside, 'secret.txt'), join(shared, 'target.txt'));
    },
    'its parent directory': async (shared: string, outside: string) => {
      await move(shared, `${shared}-moved`);
      await symlink(outside, shared);
    },
  };
  const swapCases = Object.keys(WRITES).flatMap((skill) => Object.keys(swaps).map((swap) => [skill, swap] as const));

  test.each(swapCases)('%s, swapping %s', async (skill, swap) => {
    current = await createWorkspace({ 'inside.txt': 'inside\n' }, { preset: 'trusted', outside: { 'secret.txt': 'top secret\n' } });
    const shared = current.dir.join('shared');
    await mkdir(shared);
    await writeFile(join(shared, 'target.txt'), 'shared\n');
    const outside = current.outside;
    const before = await snapshot(outside);
    // The user approves the first write (to shared/target.txt) and nothing else.
    let asked = 0;
    current.services.register('confirm', async () => {
      if (asked++ > 0) return false;
      await swaps[swap as keyof typeof swaps](shared, outside);
      return true;
    });
    const tool = skill.split(' ')[0] as string;
    const result = await current.call(tool, (WRITES[skill] as (path: string) => Record<string, unknown>)(join(shared, 'target.txt')));
    expect(result.kind, result.text).toBe('forbidden');
    expect(await snapshot(outside)).toEqual(before);
  });
});

describe('racing a swapping attacker', () => {
  test('read_file and write_file never reach the outside while a process swaps the file for a symlink', async () => {
    current = await createWorkspace({ 'victim.txt': 'inside\n' }, { outside: { 'secret.txt': 'top secret\n' } });
    const before = await snapshot(current.outside);
    const victim = join(current.work, 'victim.txt');
    const script = `
      const fs = require('node:fs');
      const [victim, target] = process.argv.slice(1);
      const end = Date.now() + 4000;
      while (Date.now() < end) {
        try { fs.rmSync(victim, { force: true }); fs.symlinkSync(target, victim); } catch {}
        try { fs.rmSync(victim, { force: true }); fs.writeFileSync(victim, 'inside\\n'); } catch {}
      }`;
    const attacker = spawn(process.execPath, ['-e', script, victim, join(current.outside, 'secret.txt')], { stdio: 'ignore' });
    const exited = new Promise((resolve) => attacker.once('exit', resolve));
    const kinds = new Set<string>();
    try {
      for (let round = 0; round < 150; round++) {
        const read = await current.call('read_file', { path: 'victim.txt' });
        expect(read.output).not.toContain('top secret');
        kinds.add(`${read.kind ?? 'ok'} ${read.kind ? read.error : ''}`);
        const written = await current.call('write_file', { path: 'victim.txt', content: 'pwned\n' });
        kinds.add(`${written.kind ?? 'ok'} ${written.kind ? written.error : ''}`);
      }
    } finally {
      attacker.kill('SIGKILL');
      await exited;
    }
    // Every outcome is a success, a refusal, "not found" (the file was gone at that moment) or an edit conflict (it changed
    // between the read and the write); never a crash.
    for (const kind of kinds) {
      if (kind.startsWith('execution_failed'))
        expect(kind).toMatch(/^execution_failed Nothing was written: victim\.txt (changed on disk|was created|was removed)/);
      else expect(['ok', 'forbidden', 'not_found'], kind).toContain(kind.split(' ')[0]);
    }
    expect(await snapshot(current.outside)).toEqual(before);
  });
});
