// The Node.js version the repository needs (root package.json `engines.node`), and Node.js from the
// npm registry where the machine's own is older: `npm start` and `npm test` call `ensureNode()`
// first, which re-runs them under that Node.js instead of failing deep inside a dependency.
// This file must run on old Node.js (20 and before): no syntax or API newer than Node 18 here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const engine = JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8')).engines.node;
const [, requiredMajor, requiredMinor = '0'] = /^>=\s*(\d+)(?:\.(\d+))?/.exec(engine) ?? [];
if (requiredMajor === undefined) throw new Error(`package.json engines.node should read ">=MAJOR[.MINOR]", not ${JSON.stringify(engine)}.`);

/** The oldest Node.js the repository runs on, e.g. `22.18`. */
export const requiredNode = `${requiredMajor}.${requiredMinor}`;

/** Whether `version` (`22.18.0` or `v22.18.0`) is at least {@link requiredNode}. */
export function isSupported(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > Number(requiredMajor) || (major === Number(requiredMajor) && minor >= Number(requiredMinor));
}

/** Set in the environment of a process this module re-ran, so that it never loops. */
const RERUN_VARIABLE = 'NEXUS_NODE_FROM_NPM';

function versionOf(binary) {
  if (!existsSync(binary)) return undefined;
  const { stdout, status } = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return status === 0 ? stdout.trim() : undefined;
}

/**
 * The directory holding the `node` binary of Node.js `major` (the newest of that line) from the
 * npm package `node`, installed once into `$XDG_CACHE_HOME/nexus/node-<major>` (default
 * `~/.cache`; not under /tmp, which commands run inside bubblewrap do not see). The install goes
 * to a directory beside it first and is renamed into place when it works, so a run killed half way
 * leaves no half-installed Node.js. `accept(version)` decides whether a cached one will do.
 */
export function nodeFromNpm(major, accept = (version) => version.startsWith(`v${major}.`)) {
  const { env } = process;
  const cacheDir = join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'nexus');
  const target = join(cacheDir, `node-${major}`);
  const binDir = (dir) => join(dir, 'node_modules', 'node', 'bin');
  const usable = (dir) => {
    const version = versionOf(join(binDir(dir), 'node'));
    return version !== undefined && accept(version);
  };
  if (usable(target)) return binDir(target);
  mkdirSync(cacheDir, { recursive: true });
  const fresh = mkdtempSync(`${target}.installing-`);
  const stale = `${target}.stale-${process.pid}`;
  try {
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', fresh, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `node@${major}`],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (npm.error || npm.status !== 0 || !usable(fresh)) {
      throw new Error(`Could not install Node.js ${major} from the npm registry (npm install node@${major}).`);
    }
    if (existsSync(target)) renameSync(target, stale);
    try {
      renameSync(fresh, target);
    } catch (error) {
      // Another run put one in place at the same moment.
      if (!usable(target)) throw error;
    }
    return binDir(target);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(stale, { recursive: true, force: true });
  }
}

/**
 * Returns when this Node.js is new enough. Otherwise says so in one line on stderr and runs the
 * calling script again, with the same arguments, under Node.js {@link requiredNode}'s line from the
 * npm registry (first on PATH, so that `node` and `npx` in child processes are that one too), then
 * exits with its status.
 */
export function ensureNode() {
  const current = process.versions.node;
  if (isSupported(current)) return;
  if (process.env[RERUN_VARIABLE]) {
    console.error(`Nexus needs Node.js ${requiredNode} or newer, and ${process.execPath} is ${current}.`);
    process.exit(1);
  }
  console.error(
    `Nexus needs Node.js ${requiredNode} or newer (this is ${current}): running under Node.js ${requiredMajor} from the npm registry (fetched once, cached).`,
  );
  let binDir;
  try {
    binDir = nodeFromNpm(requiredMajor, isSupported);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const env = { ...process.env, [RERUN_VARIABLE]: '1', PATH: [binDir, process.env.PATH].filter(Boolean).join(delimiter) };
  const { status, error } = spawnSync(join(binDir, 'node'), [process.argv[1], ...process.argv.slice(2)], { env, stdio: 'inherit' });
  if (error) console.error(`Could not run Node.js ${requiredMajor}: ${error.message}`);
  process.exit(status ?? 1);
}

// `node scripts/node-version.mjs bin <major>`: the directory of Node.js <major> from the npm
// registry (installed once), for CI to put first on PATH.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, major] = process.argv.slice(2);
  if (command !== 'bin' || !/^\d+$/.test(major ?? '')) {
    console.error('Usage: node scripts/node-version.mjs bin <major>');
    process.exit(2);
  }
  try {
    console.log(nodeFromNpm(major));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
