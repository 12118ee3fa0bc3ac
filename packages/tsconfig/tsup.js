import { defineConfig } from 'tsup';

/** The build every public package shares: `src/index.ts` to ESM in `dist/`, with types and source maps, for Node 20. */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
