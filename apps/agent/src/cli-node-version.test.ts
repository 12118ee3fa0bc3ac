import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runNexus } from './testing/nexus-process-fixture.js';

beforeAll(ensureBuilt, 180_000);

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };

/** Runs the built `nexus` with `process.versions.node` reading `version`, as on that Node.js. */
function nexusOn(version: string, args: string[]) {
  const pretend = `--import=data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`;
  return runNexus(args, { cwd: tmpdir(), env: { NODE_OPTIONS: pretend } });
}

describe('the built nexus command on an older Node.js', () => {
  it('says in one line which Node.js it needs and exits 2, before loading anything else', async () => {
    expect(engines.node).toBe('>=22');
    expect(await nexusOn('20.19.0', ['--help'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'nexus needs Node.js 22 or newer (this is Node.js 20.19.0).\n',
    });
  });

  it('runs on the oldest Node.js it supports', async () => {
    const run = await nexusOn('22.0.0', ['--help']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^nexus — /);
  });
});
