// Runs the pinned pnpm (package.json `packageManager`): the installed one when its version
// matches, otherwise through `npx`, so a machine with only Node.js and npm needs nothing else.
// This is the one place that says how to run pnpm: scripts/start.mjs, scripts/test.mjs and
// test/packaging.test.ts import it, and `node scripts/pnpm.mjs <args>` runs it from a shell.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootDir = fileURLToPath(new URL('..', import.meta.url));

/** The pnpm version the repository pins, e.g. `10.34.9`. */
export const pinnedVersion = JSON.parse(readFileSync(`${rootDir}package.json`, 'utf8')).packageManager.replace(/^pnpm@/, '');

/**
 * The environment for pnpm and what it runs (npx, turbo): the caller's, without update boxes or
 * telemetry notices, so that a newcomer sees Nexus only.
 */
export const pnpmEnv = {
  ...process.env,
  npm_config_update_notifier: 'false', // pnpm's "Update available!" box, and npm's (npx's) notice
  TURBO_TELEMETRY_DISABLED: '1',
  TURBO_NO_UPDATE_NOTIFIER: '1',
  DO_NOT_TRACK: '1',
};

function installedVersion() {
  try {
    return execFileSync('pnpm', ['--version'], {
      encoding: 'utf8',
      env: pnpmEnv,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 60_000,
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The command that runs the pinned pnpm, as `[file, ...arguments]`: `['pnpm']` when the installed
 * pnpm is the pinned version, otherwise `npx` (which fetches it once into npm's cache; its own
 * warnings are hidden, its errors are not). Run it with `pnpmEnv`.
 */
export const pnpmCommand = installedVersion() === pinnedVersion ? ['pnpm'] : ['npx', '--yes', '--loglevel=error', `pnpm@${pinnedVersion}`];

/**
 * Runs pnpm with `args` in the repository root. Its output is kept back and shown on stderr only
 * when it fails (stdout stays clean for what `nexus` prints, e.g. an MCP stdio stream); throws then.
 */
export function pnpm(...args) {
  const [file, ...prefix] = pnpmCommand;
  // One log file for stdout and stderr keeps their lines in the order pnpm wrote them.
  const logDir = mkdtempSync(join(tmpdir(), 'nexus-pnpm-'));
  const log = openSync(join(logDir, 'log'), 'w+');
  try {
    const { status, signal, error } = spawnSync(file, [...prefix, ...args], { cwd: rootDir, env: pnpmEnv, stdio: ['ignore', log, log] });
    if (status === 0) return;
    process.stderr.write(readFileSync(join(logDir, 'log'), 'utf8'));
    const why = error ? `: ${error.message}` : signal ? ` (${signal})` : ` with exit status ${status}`;
    throw new Error(`\`${[...pnpmCommand, ...args].join(' ')}\` failed${why}.`);
  } finally {
    closeSync(log);
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** Whether node_modules already holds exactly what the lockfile says (pnpm keeps a copy of it there). */
function isInstalled() {
  const installed = `${rootDir}node_modules/.pnpm/lock.yaml`;
  return existsSync(installed) && readFileSync(installed, 'utf8') === readFileSync(`${rootDir}pnpm-lock.yaml`, 'utf8');
}

/**
 * Installs the workspace's packages (from the lockfile) unless they are in place, and builds every
 * package (turbo: only what changed). Quiet: one line on stderr while installing, and pnpm's or
 * turbo's output only when they fail.
 */
export function installAndBuild() {
  if (!isInstalled()) {
    console.error(`Installing dependencies with pnpm ${pinnedVersion} (first run only)…`);
    pnpm('install', '--frozen-lockfile', '--reporter=append-only');
  }
  pnpm('run', 'build', '--output-logs=errors-only', '--log-order=grouped');
}

// `node scripts/pnpm.mjs <args>`: run the pinned pnpm with its output as it comes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, ...prefix] = pnpmCommand;
  const { status, error } = spawnSync(file, [...prefix, ...process.argv.slice(2)], { env: pnpmEnv, stdio: 'inherit' });
  if (error) console.error(`Could not run pnpm: ${error.message}`);
  process.exit(status ?? 1);
}
