// Runs the pinned pnpm: the installed one when its version matches `packageManager`, otherwise
// through `npx`, so a machine with only Node.js and npm needs nothing else.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

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

/**
 * Runs pnpm with `args` in the repository root, its output on stderr (stdout stays clean for
 * what `nexus` prints, e.g. an MCP stdio stream); throws when it fails.
 */
export function pnpm(...args) {
  const [file, ...prefix] = command;
  const { status, error } = spawnSync(file, [...prefix, ...args], { cwd: rootDir, stdio: ['ignore', process.stderr, process.stderr] });
  if (status !== 0) throw new Error(`\`pnpm ${args.join(' ')}\` failed${error ? `: ${error.message}` : ` with exit status ${status}`}.`);
}

/** Whether node_modules already holds exactly what the lockfile says (pnpm keeps a copy of it there). */
function isInstalled() {
  const installed = new URL('node_modules/.pnpm/lock.yaml', rootDir);
  return existsSync(installed) && readFileSync(installed, 'utf8') === readFileSync(new URL('pnpm-lock.yaml', rootDir), 'utf8');
}

/** Installs the workspace's packages (from the lockfile) unless they are in place, and builds every package. */
export function installAndBuild() {
  if (!isInstalled()) pnpm('install', '--frozen-lockfile', '--reporter=append-only');
  pnpm('run', '--silent', 'build', '--output-logs=errors-only', '--log-order=grouped');
}
