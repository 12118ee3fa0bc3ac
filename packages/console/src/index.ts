import { fileURLToPath } from 'node:url';

/**
 * The directory of the built console page (`index.html` and `assets/`), which the agent server
 * serves under `/console/`: `serveAgents(pool, { console: { assetsDir: consoleAssetsDir } })`.
 */
export const consoleAssetsDir: string = fileURLToPath(new URL('../dist/app/', import.meta.url));
