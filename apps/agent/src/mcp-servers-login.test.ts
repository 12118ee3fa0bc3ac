import { readFile, stat } from 'node:fs/promises';
import { type McpHttpServer, serveHttp } from '@nexus/mcp';
import { utilitySkills } from '@nexus/registry';
import { createTestAgent } from '@nexus/registry/testing';
import { freePort, type OidcStandIn, startOidcProvider, type TestDir, testdir, waitUntil, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';

let dir: TestDir;
let idp: OidcStandIn;
let remote: McpHttpServer;

beforeEach(async () => {
  dir = await testdir({ work: {}, config: {}, state: {} });
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  idp = await startOidcProvider({ audience, users: { alice: { email: 'alice@example.com' } } });
  // A remote MCP server that wants OAuth: its tools (echo, sleep) open to the issuer's tokens only.
  const { registry } = createTestAgent({ cwd: dir.join('work'), families: [utilitySkills] });
  remote = await serveHttp(registry, { port, auth: { issuer: idp.issuer, audience, scopes: ['api'] } });
  await writeTree(dir.join('config', 'nexus'), {
    'nexus.config.json': JSON.stringify({ mcpServers: { remote: { url: remote.url, auth: 'oauth' } } }),
  });
});

afterEach(async () => {
  await remote.close();
  await idp.close();
  await dir.cleanup();
});

function nexus(args: string[]) {
  const memory = memoryIo({ cwd: dir.join('work'), configHome: dir.join('config'), env: { XDG_STATE_HOME: dir.join('state') } });
  return { memory, done: runCli(args, memory.io) };
}

describe('nexus mcp-servers login', () => {
  it('signs in to a server with auth "oauth" (the person approving at the address it prints), after which its tools import', async () => {
    const before = nexus(['mcp-servers', 'list', '--json']);
    expect(await before.done).toBe(0);
    expect(JSON.parse(before.memory.stdout())).toEqual([
      expect.objectContaining({
        name: 'remote',
        state: 'failed',
        lastError: expect.stringContaining('needs a login: run `nexus mcp-servers login`'),
      }),
    ]);

    const login = nexus(['mcp-servers', 'login', 'remote']);
    await waitUntil(() => /https?:\/\/\S+\/auth\?\S+/.test(login.memory.stderr()), 'the address to sign in at');
    const [address] = /https?:\/\/\S+\/auth\?\S+/.exec(login.memory.stderr()) ?? [];
    await fetch(await idp.authorizeAs('alice', new URL(address as string)));
    expect(await login.done).toBe(0);
    expect(login.memory.stdout()).toMatch(/^Signed in to MCP server "remote"/);
    const file = dir.join('state', 'nexus', 'oauth', 'remote.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const { tokens } = JSON.parse(await readFile(file, 'utf8'));
    expect(login.memory.stdout() + login.memory.stderr()).not.toContain(tokens.access_token);
    expect(login.memory.stdout() + login.memory.stderr()).not.toContain(tokens.refresh_token);

    const after = nexus(['mcp-servers', 'tools', 'remote', '--json']);
    expect(await after.done).toBe(0);
    expect(JSON.parse(after.memory.stdout()).map((tool: { name: string }) => tool.name)).toContain('mcp__remote__echo');

    // A call through the imported tool: its result and audit record, and every output so far, hold no secret of the login.
    const call = nexus(['call', '--preset', 'yolo', 'mcp__remote__echo', 'message=hello']);
    expect(await call.done, call.memory.stderr()).toBe(0);
    expect(call.memory.stdout()).toContain('hello');
    const { client } = JSON.parse(await readFile(file, 'utf8'));
    const audit = await readFile(dir.join('state', 'nexus', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('mcp__remote__echo');
    const seen = [login, after, call].map(({ memory }) => memory.stdout() + memory.stderr()).join('\n') + audit;
    for (const secret of [tokens.access_token, tokens.refresh_token, client?.client_secret].filter(Boolean)) {
      expect(seen.includes(secret), 'a secret of the login in the output or the audit log').toBe(false);
    }
  });

  it('says so, with exit status 2, for a server that does not use OAuth or is not configured', async () => {
    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({ mcpServers: { plain: { url: remote.url } } }),
    });
    const plain = nexus(['mcp-servers', 'login', 'plain']);
    expect(await plain.done).toBe(2);
    expect(plain.memory.stderr()).toContain('does not sign in with OAuth: give it "auth": "oauth"');
    const missing = nexus(['mcp-servers', 'login', 'ghost']);
    expect(await missing.done).toBe(2);
    expect(missing.memory.stderr()).toContain('No MCP server named "ghost"');
  });
});
