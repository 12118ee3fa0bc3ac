import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// `npm start` and `npm test` call scripts/node-version.mjs's ensureNode() first; these tests run a
// script that does the same, as on an older Node.js, with a cache that already holds Node.js from
// the npm registry (this process's own binary), so nothing is downloaded.
const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const nodeVersionModule = pathToFileURL(join(root, 'scripts', 'node-version.mjs')).href;

let dir: string;
let cachedBin: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nexus-node-version-'));
  const { requiredNode } = (await import(nodeVersionModule)) as { requiredNode: string };
  cachedBin = join(dir, 'cache', 'nexus', `node-${requiredNode.split('.')[0]}`, 'node_modules', 'node', 'bin');
  await mkdir(cachedBin, { recursive: true });
  await symlink(process.execPath, join(cachedBin, 'node'));
  await writeFile(
    join(dir, 'probe.mjs'),
    `import { ensureNode } from ${JSON.stringify(nodeVersionModule)};
ensureNode();
console.log(JSON.stringify({ node: process.versions.node, firstOnPath: process.env.PATH.split(${JSON.stringify(delimiter)})[0], args: process.argv.slice(2) }));
`,
  );
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the probe with `process.versions.node` reading `version` (the re-run child sees its real one). */
function probeOn(version: string | undefined, env: Record<string, string> = {}) {
  const pretend = version ? [`--import=data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`] : [];
  return run(process.execPath, [...pretend, join(dir, 'probe.mjs'), 'one', 'two'], {
    env: { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache'), ...env },
  });
}

describe('ensureNode (npm start, npm test)', () => {
  it('on an older Node.js, says so in one line and re-runs the script under the cached Node.js, first on PATH', async () => {
    const { stdout, stderr } = await probeOn('20.19.0');
    expect(stderr).toMatch(
      /^Nexus needs Node\.js 22\.\d+ or newer \(this is 20\.19\.0\): running under Node\.js 22 from the npm registry \(fetched once, cached\)\.\n$/,
    );
    expect(JSON.parse(stdout)).toEqual({ node: process.versions.node, firstOnPath: cachedBin, args: ['one', 'two'] });
  });

  it('in a process it re-ran that is still too old, says so and exits 1 instead of re-running again', async () => {
    const failed = await probeOn('20.19.0', { NEXUS_NODE_FROM_NPM: '1' }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed?.stderr).toMatch(/^Nexus needs Node\.js 22\.\d+ or newer, and .+ is 20\.19\.0\.\n$/);
  });

  it('on a new enough Node.js, does nothing', async () => {
    const { stdout, stderr } = await probeOn(undefined);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toMatchObject({ node: process.versions.node, args: ['one', 'two'] });
    expect(JSON.parse(stdout).firstOnPath).not.toBe(cachedBin);
  });
});
