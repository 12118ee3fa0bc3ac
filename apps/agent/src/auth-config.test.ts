import { readFile } from 'node:fs/promises';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { authSchema } from './auth-schema.js';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';

let dir: TestDir | undefined;
afterEach(() => dir?.cleanup());

async function nexus(args: string[], userConfig?: unknown) {
  dir = await testdir({ project: {}, config: {}, state: {} });
  if (userConfig !== undefined) await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(userConfig) });
  const memory = memoryIo({
    cwd: dir.join('project'),
    configHome: dir.join('config'),
    env: { XDG_STATE_HOME: dir.join('state'), HOME: dir.path },
  });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

/** The JSON block the README marks as its identity-provider example. */
async function readmeExample(): Promise<unknown> {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const block = /<!-- identity-provider-example -->\n```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('apps/agent/README.md has no identity-provider example');
  return JSON.parse(block);
}

describe('auth in the config file', () => {
  it('`nexus help config` shows every key of auth, of a users entry and of its match', async () => {
    const { code, stdout } = await nexus(['help', 'config']);
    const users = authSchema.shape.users.unwrap().element;
    const keys = [...Object.keys(authSchema.shape), ...Object.keys(users.shape), ...Object.keys(users.shape.match.shape)];

    expect(code).toBe(0);
    for (const key of keys) expect(stdout, `"${key}" in nexus help config`).toContain(`"${key}"`);
  });

  it("the README's identity-provider configuration is a valid user config", async () => {
    const example = (await readmeExample()) as { auth: object };
    const { code, stdout, stderr } = await nexus(['config', '--families', 'fs'], example);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).auth).toEqual(example.auth);
  });

  it('refuses a users entry that matches nothing in particular, naming the field', async () => {
    const auth = { issuer: 'https://sso.example.com/realms/acme', audience: 'https://nexus.example.com/mcp', users: [{ match: {} }] };
    const { code, stderr } = await nexus(['config'], { auth });

    expect(code).toBe(2);
    expect(stderr).toContain('auth.users.0.match');
  });
});
