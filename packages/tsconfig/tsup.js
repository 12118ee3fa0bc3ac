import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * The build every public package shares: its entry points — `src/index.ts`, and where present the
 * plugin-author subpath `src/kit.ts` and the test helpers `src/testing.ts` — to ESM in `dist/`, with
 * types and source maps, for Node 22.
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/kit.ts', 'src/testing.ts'].filter((entry) => existsSync(entry)),
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
});
