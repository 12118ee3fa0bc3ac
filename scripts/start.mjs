// The main job: install and build on first use, then run the `nexus` command with the given
// arguments (default: `nexus serve`, the agent server with its console, whose link it prints). On
// a Node.js older than the repository needs, it first re-runs itself under a new enough one from
// the npm registry (scripts/node-version.mjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureNode } from './node-version.mjs';

ensureNode();
const { installAndBuild } = await import('./pnpm.mjs');

try {
  installAndBuild();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const cli = fileURLToPath(new URL('../apps/agent/dist/cli.js', import.meta.url));
const args = process.argv.slice(2);
const { status } = spawnSync(process.execPath, [cli, ...(args.length ? args : ['serve'])], { stdio: 'inherit' });
process.exit(status ?? 1);
