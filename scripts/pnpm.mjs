// Runs the pinned pnpm: the installed one when its version matches `packageManager`, otherwise
// through `npx`, so a machine with only Node.js and npm needs nothing else.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const rootDir = new URL('..', import.meta.url);
const pinned = JSON.parse(readFileSync(new URL('package.json', rootDir), 'utf8')).packageManager.replace(/^pnpm@/, '');

function installedVersion() {
  try {
    return execFileSync('pnpm', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

const command = installedVersion() === pinned ? ['pnpm'] : ['npx', '--yes', `pnpm@${pinned}`];

/** Runs pnpm with `args` in the repository root; throws when it fails. */
export function pnpm(...args) {
  const [file, ...prefix] = command;
  const { status, error } = spawnSync(file, [...prefix, ...args], { cwd: rootDir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (status !== 0) throw new Error(`\`pnpm ${args.join(' ')}\` failed${error ? `: ${error.message}` : ` with exit status ${status}`}.`);
}

/** Installs the workspace's packages (from the lockfile) and builds every package. */
export function installAndBuild() {
  pnpm('install', '--frozen-lockfile', '--reporter=append-only');
  pnpm('run', 'build', '--output-logs=errors-only');
}
