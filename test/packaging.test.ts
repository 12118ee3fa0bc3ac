import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnpmCommand, pnpmEnv } from '../scripts/pnpm.mjs';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const [pnpmFile, ...pnpmPrefix] = pnpmCommand as string[];

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

const publicPackages = readdirSync(join(root, 'packages'))
  .map((dir) => ({
    dir: join(root, 'packages', dir),
    manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest,
  }))
  .filter(({ manifest }) => !manifest.private);

// Packing needs the built dist/ (the test command builds first).
describe('packaging of every public package', () => {
  let packDir: string;
  const tarballs = new Map<string, string>();

  beforeAll(async () => {
    packDir = await mkdtemp(join(tmpdir(), 'nexus-pack-'));
    for (const { dir, manifest } of publicPackages) {
      expect(existsSync(join(dir, 'dist', 'index.js')), `${manifest.name} is not built; run the test command, which builds first`).toBe(
        true,
      );
      const before = new Set(await readdir(packDir));
      // The pinned pnpm, run as the test command runs it (no pnpm on PATH needed).
      await run(pnpmFile, [...pnpmPrefix, 'pack', '--pack-destination', packDir], { cwd: dir, env: pnpmEnv });
      const created = (await readdir(packDir)).find((file) => !before.has(file));
      tarballs.set(manifest.name, join(packDir, created as string));
    }
  });
  afterAll(() => rm(packDir, { recursive: true, force: true }));

  // publint lints the tarball made above: given a directory, it would pack it itself with a `pnpm`
  // from PATH, which a machine with only Node.js and npm does not have.
  it.each(publicPackages.map(({ manifest }) => [manifest.name]))('%s passes publint', async (name) => {
    const { stdout } = await run(bin('publint'), ['--strict', tarballs.get(name) as string]);
    expect(stdout).toMatch(/All good/);
  });

  it.each(publicPackages.map(({ manifest }) => [manifest.name]))('%s passes @arethetypeswrong/cli (ESM only)', async (name) => {
    // attw exits non-zero on any problem the ESM-only profile does not ignore; `run` rejects then.
    const { stdout } = await run(bin('attw'), [tarballs.get(name) as string, '--profile', 'esm-only', '--no-color']);
    expect(stdout).toContain(`${name} v`);
    // With subpath exports attw prints a table; problems the profile ignores read `(ignored …) 💀` in their cell.
    expect(stdout.replaceAll(/\(ignored[^)]*\)\s*(❌|💀)/gu, '')).not.toMatch(/❌|💀/u);
  });

  it('core + registry install from their tarballs into a fresh npm project and run the README snippet', async () => {
    const project = await mkdtemp(join(tmpdir(), 'nexus-consumer-'));
    try {
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
      await run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          tarballs.get('@nexus/core') as string,
          tarballs.get('@nexus/registry') as string,
        ],
        { cwd: project },
      );
      await writeFile(
        join(project, 'snippet.mjs'),
        `import { ServiceContainer, resolvePreset } from '@nexus/core';
import { SkillRegistry, utilitySkills } from '@nexus/registry';
const dir = process.cwd();
const services = new ServiceContainer();
services.register('cwd', dir);
services.register('permissions', resolvePreset('sandboxed', { cwd: dir }));
const registry = new SkillRegistry(services).use(utilitySkills);
const result = await registry.execute('echo', { message: 'hi' });
console.log(JSON.stringify(result));
`,
      );
      const { stdout } = await run(process.execPath, ['snippet.mjs'], { cwd: project });
      expect(JSON.parse(stdout)).toEqual({ success: true, output: 'hi', error: '' });
      expect(existsSync(join(project, 'node_modules', '@nexus', 'skills-fs'))).toBe(false);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  }, 180_000);
});
