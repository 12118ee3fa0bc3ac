import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;
const packageDirs = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')))
    .map((entry) => join(group, entry.name)),
);

// Tests import workspace packages by name; point those names at the sources so tests never run
// against a stale build. The packaging test covers the built `dist/` files.
const alias = Object.fromEntries(
  packageDirs
    .filter((dir) => existsSync(join(root, dir, 'src', 'index.ts')))
    .map((dir) => [`@nexus/${dir.split('/')[1] === 'agent' ? 'agent' : dir.split('/')[1]}`, resolve(root, dir, 'src', 'index.ts')]),
);

export default defineConfig({
  resolve: { alias },
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      ...packageDirs.map((dir) => ({
        extends: true,
        test: { name: dir.split('/')[1] as string, root: resolve(root, dir), include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      })),
      // Checks of the repository as a whole: packaging of every public package.
      { extends: true, test: { name: 'repository', root, include: ['test/**/*.test.ts'] } },
    ],
  },
});
