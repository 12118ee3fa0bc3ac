import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page is served by the agent server under /console/, built into dist/app beside the Node entry.
export default defineConfig({
  root: fileURLToPath(new URL('./app', import.meta.url)),
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/app', import.meta.url)),
    emptyOutDir: true,
    // No inline script: the CSP allows the page's own files only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
