import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FileOAuthClient } from '@nexus/auth';
import { freePort, type OidcStandIn, startOidcProvider, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importMcpServer, type McpHttpServer, mcpOAuthClient, serveHttp } from './index.js';
import { createClient, createModernClient, createTestRegistry } from './mcp-fixture.js';

let dir: TestDir;
let idp: OidcStandIn;
let server: McpHttpServer;
let audience: string;

beforeEach(async () => {
  dir = await testdir({ 'a.txt': 'alpha' });
  const port = await freePort();
  audience = `http://127.0.0.1:${port}/mcp`;
  idp = await startOidcProvider({ audience, users: { alice: { email: 'alice@example.com' } } });
  server = await serveHttp(createTestRegistry(dir.path).registry, {
    port,
    auth: { issuer: idp.issuer, audience, scopes: ['api'], keyRefetchCooldownSeconds: 0 },
  });
});

afterEach(async () => {
  await server.close();
  await idp.close();
  await dir.cleanup();
});

const post = (headers: Record<string, string> = {}) =>
  fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

describe('nexus mcp --http as an OAuth resource server (MCP authorization)', () => {
  it('publishes its protected resource metadata, naming the issuer', async () => {
    const base = new URL(server.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: audience,
        authorization_servers: [idp.issuer],
        scopes_supported: ['api'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('answers 401 with a challenge that points to the metadata, and says why a token was refused', async () => {
    const metadata = `${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`;

    const bare = await post();
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}"`);

    const expired = await idp.sign({ iss: idp.issuer, aud: audience, sub: 'alice', exp: Math.floor(Date.now() / 1000) - 600 });
    const refused = await post({ authorization: `Bearer ${expired}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadata}", error="invalid_token", error_description="the token has expired"`,
    );
    const other = await idp.sign({
      iss: idp.issuer,
      aud: 'https://another.example',
      sub: 'alice',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    expect((await post({ authorization: `Bearer ${other}` })).status).toBe(401);
  });

  it('refuses with 403 a token lacking a configured scope (insufficient_scope) or admitted by no entry of users', async () => {
    const lacking = await idp.sign({ iss: idp.issuer, aud: audience, sub: 'alice', exp: Math.floor(Date.now() / 1000) + 60 });
    const refused = await post({ authorization: `Bearer ${lacking}` });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp", error="insufficient_scope", scope="api"`,
    );

    const port = await freePort();
    const guarded = await serveHttp(createTestRegistry(dir.path).registry, {
      port,
      auth: { issuer: idp.issuer, audience: `http://127.0.0.1:${port}/mcp`, users: [{ match: { groups: 'platform' } }] },
    });
    try {
      const token = await idp.sign({
        iss: idp.issuer,
        aud: `http://127.0.0.1:${port}/mcp`,
        sub: 'alice',
        exp: Math.floor(Date.now() / 1000) + 60,
      });
      const response = await fetch(guarded.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('no entry of auth.users admits this token (sub \\"alice\\"');
    } finally {
      await guarded.close();
    }
  });

  it("accepts the issuer's tokens and the static token", async () => {
    // Past the bearer check, a 2025-era request without a session is MCP's own 400.
    for (const token of [await idp.token('alice'), server.token]) {
      const response = await post({ authorization: `Bearer ${token}` });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('Missing Mcp-Session-Id');
    }
  });

  it('lets a 2026-07-28 client find the issuer, sign in and call tools, with nothing set up but the server URL', async () => {
    const login = new FileOAuthClient({ serverUrl: server.url, file: dir.join('oauth', 'nexus.json') });
    await login.login(async (url) => {
      await fetch(await idp.authorizeAs('alice', url));
    });
    const client = createModernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: login }));
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('imports it with auth: "oauth" once signed in: refused before, its tools work after', async () => {
    const config = { url: server.url, auth: 'oauth' as const, oauth: { scope: 'api' } };
    const oauthDirectory = dir.join('state', 'oauth');
    await expect(importMcpServer('remote', config, { oauthDirectory })).rejects.toThrow(/needs a login: run `nexus mcp-servers login`/);

    await mcpOAuthClient('remote', config, { oauthDirectory })?.login(async (url) => {
      await fetch(await idp.authorizeAs('alice', url));
    });
    const imported = await importMcpServer('remote', config, { oauthDirectory });
    try {
      expect(imported.status).toMatchObject({ state: 'running', toolCount: expect.any(Number) });
      expect(imported.family.skills.length).toBeGreaterThan(0);
    } finally {
      await imported.close();
    }
    expect(mcpOAuthClient('local', { command: 'true' })).toBeUndefined();
  });

  it("serves a person through their own registry (registryFor) on both revisions, and keeps a 2025-era session its opener's", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const narrowed = createTestRegistry(dir.path, { tools: { echo: { enabled: false } } }).registry;
    const served = await serveHttp(createTestRegistry(dir.path).registry, {
      port,
      auth: { issuer: idp.issuer, audience: url },
      registryFor: (caller) => (caller.subject === 'alice' ? narrowed : undefined),
    });
    const headers = async (user: string) => ({
      authorization: `Bearer ${await idp.sign({ iss: idp.issuer, aud: url, sub: user, exp: Math.floor(Date.now() / 1000) + 60 })}`,
    });
    const toolNames = async (client: { listTools(): Promise<{ tools: { name: string }[] }> }) =>
      (await client.listTools()).tools.map((tool) => tool.name);
    const legacy = createClient();
    const modern = createModernClient();
    try {
      await legacy.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: await headers('alice') } }));
      await modern.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: await headers('alice') } }));
      expect(await toolNames(legacy)).not.toContain('echo');
      expect(await toolNames(modern)).not.toContain('echo');
      const theStatic = createModernClient();
      await theStatic.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }),
      );
      expect(await toolNames(theStatic)).toContain('echo');
      await theStatic.close();

      const sessionId = (legacy.transport as StreamableHTTPClientTransport).sessionId as string;
      const hijack = await fetch(url, {
        method: 'POST',
        headers: {
          ...(await headers('bob')),
          'mcp-session-id': sessionId,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(hijack.status).toBe(404);
    } finally {
      await legacy.close();
      await modern.close();
      await served.close();
    }
  });
});
