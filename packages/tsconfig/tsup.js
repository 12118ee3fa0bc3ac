import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * The source of each subpath the package exports: `.` → `src/index.ts`, `./kit` → `src/kit.ts`
 * (plugin authors' helpers), `./testing` → `src/testing.ts`, and so on. The exports map is the one
 * list of entry points, so a new subpath needs no change here.
 */
function exportedEntries() {
  const { exports = {} } = JSON.parse(readFileSync('package.json', 'utf8'));
  return Object.keys(exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? 'src/index.ts' : `src/${subpath.slice(2)}.ts`));
}

/**
 * The build every public package shares: the entry point of each subpath in its exports map, to
 * ESM in `dist/`, with types and source maps, for Node 22.
 */
export default defineConfig({
  entry: exportedEntries(),
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
});
