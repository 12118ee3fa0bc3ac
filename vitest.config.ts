import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { loadConfigFromFile } from 'vite';
import { defineConfig, mergeConfig } from 'vitest/config';

const root = import.meta.dirname;
const packageDirs = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')))
    .map((entry) => join(group, entry.name)),
);

// Tests import workspace packages by name; point those names (and their `kit`, `testing`,
// `agent-server` and `http` subpaths) at the sources so tests never run against a stale build.
// The packaging test covers the built `dist/` files.
const alias = packageDirs
  .filter((dir) => existsSync(join(root, dir, 'src', 'index.ts')))
  .flatMap((dir) => {
    const name = `@nexus/${basename(dir)}`;
    return [
      { find: new RegExp(`^${name}$`), replacement: resolve(root, dir, 'src', 'index.ts') },
      { find: new RegExp(`^${name}/(kit|testing|agent-server|http)$`), replacement: resolve(root, dir, 'src', '$1.ts') },
    ];
  });

// A package's own vitest.config.ts adds to its project (more test files, setup files).
async function packageTestOptions(dir: string) {
  const file = join(root, dir, 'vitest.config.ts');
  if (!existsSync(file)) return {};
  return (await loadConfigFromFile({ command: 'serve', mode: 'test' }, file))?.config.test ?? {};
}

export default defineConfig({
  resolve: { alias },
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      ...(await Promise.all(
        packageDirs.map(async (dir) => ({
          extends: true,
          test: mergeConfig(
            { name: dir.split('/')[1] as string, root: resolve(root, dir), include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
            await packageTestOptions(dir),
          ),
        })),
      )),
      // Checks of the repository as a whole: packaging of every public package.
      { extends: true, test: { name: 'repository', root, include: ['test/**/*.test.ts'] } },
    ],
  },
});
