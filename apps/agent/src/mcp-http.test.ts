import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { startOidcProvider, type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, type HttpNexus, nexusEnv, startHttpNexus } from './testing/nexus-process-fixture.js';

let dir: TestDir;
let nexus: HttpNexus | undefined;
const clients: Client[] = [];

beforeAll(ensureBuilt, 180_000);

beforeEach(async () => {
  dir = await testdir({ project: {}, config: {} });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await nexus?.stop();
  nexus = undefined;
  await dir.cleanup();
});

async function start(args: string[] = [], env: Record<string, string> = {}): Promise<HttpNexus> {
  nexus = await startHttpNexus(args, { cwd: dir.join('project'), env: nexusEnv(dir.join('config'), env) });
  return nexus;
}

async function connect(server: HttpNexus, token = server.token): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  clients.push(client);
  return client;
}

/** A request with exactly these headers; resolves with the status and headers once the answer has ended. */
function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path: pathname, method, headers, setHost: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A POST with exactly these headers; returns the status. */
async function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return (await send('POST', url, headers, body)).status;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { text: string }[])[0]?.text ?? '';
}

describe('nexus mcp --http, with the SDK client', () => {
  it('prints a loopback URL and a token, and serves tools to a client that sends it', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.token).toMatch(/^[\w-]{40,}$/);
    const client = await connect(server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'sleep']));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'over http' } }))).toBe('over http');
  });

  it('reports a failing call, forwards progress, and cancels a running sleep', async () => {
    const client = await connect(await start());
    const failed = await client.callTool({ name: 'sleep', arguments: { seconds: -1 } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('`seconds`');
    const updates: Progress[] = [];
    await client.callTool({ name: 'sleep', arguments: { seconds: 1.2 } }, undefined, { onprogress: (progress) => updates.push(progress) });
    expect(updates.length).toBeGreaterThanOrEqual(1);
    const controller = new AbortController();
    const call = client.callTool({ name: 'sleep', arguments: { seconds: 600 } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort('enough'),
    });
    await expect(call).rejects.toThrow();
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'after' } }))).toBe('after');
  });

  it('takes the token from NEXUS_MCP_TOKEN without printing it', async () => {
    const token = 'a-token-chosen-by-the-user-1234';
    const server = await start([], { NEXUS_MCP_TOKEN: token });
    expect(server.stdout()).not.toContain(token);
    expect(server.stdout()).toContain('Token: (from NEXUS_MCP_TOKEN)');
    const client = await connect(server, token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('closes a session idle for http.sessionIdleMinutes; its id then gets 404', async () => {
    await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify({ http: { sessionIdleMinutes: 0.005 } }) });
    const server = await start();
    const headers = {
      host: new URL(server.url).host,
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const opened = await send('POST', server.url, headers, initialize);
    expect(opened.status).toBe(200);
    const session = { ...headers, 'mcp-session-id': opened.headers['mcp-session-id'] as string };
    // The client's notification stream: it ends when the server closes the idle session.
    expect((await send('GET', server.url, { ...session, accept: 'text/event-stream' })).status).toBe(200);
    expect(await post(server.url, session, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }))).toBe(404);
  });

  it('stops cleanly on SIGTERM', async () => {
    const server = await start();
    nexus = undefined;
    expect(await server.stop()).toBe(0);
  });
});

describe('nexus mcp --http — hardening', () => {
  it('refuses without the token (401), from a foreign Host or Origin (403), and non-JSON bodies (415)', async () => {
    const server = await start();
    const host = new URL(server.url).host;
    const good = {
      host,
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    expect(await post(server.url, good, initialize)).toBe(200);
    const { authorization: _, ...noToken } = good;
    expect(await post(server.url, noToken, initialize)).toBe(401);
    expect(await post(server.url, { ...good, authorization: 'Bearer not-the-token' }, initialize)).toBe(401);
    expect(await post(server.url, { ...good, host: 'attacker.example' }, initialize)).toBe(403);
    expect(await post(server.url, { ...good, origin: 'http://attacker.example' }, initialize)).toBe(403);
    expect(await post(server.url, { ...good, 'content-type': 'text/plain' }, initialize)).toBe(415);
    await expect(connect(server, 'a-wrong-token-of-some-length')).rejects.toThrow();
  });

  it('accepts its own loopback origin and those in http.allowedOrigins; refuses others with 403', async () => {
    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({ http: { allowedOrigins: ['http://localhost:6274'] } }),
    });
    const server = await start();
    const { host, port } = new URL(server.url);
    const good = {
      host,
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'http://localhost:6274']) {
      expect(await post(server.url, { ...good, origin }, initialize), origin).toBe(200);
    }
    expect(await post(server.url, { ...good, host: `localhost:${port}`, origin: `http://localhost:${port}` }, initialize)).toBe(200);
    const otherPort = Number(port) + 1;
    for (const origin of [
      'http://attacker.example',
      `http://127.0.0.1:${otherPort}`,
      `http://localhost:${otherPort}`,
      'http://localhost:6275',
    ]) {
      expect(await post(server.url, { ...good, origin }, initialize), origin).toBe(403);
    }
  });

  it('lets a cross-origin browser-style request do nothing', async () => {
    const server = await start();
    const host = new URL(server.url).host;
    const client = await connect(server);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId as string;
    const target = dir.join('project', 'planted.txt');
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: target, content: 'x' } },
    });
    // What a page on another site can send without a CORS preflight: a text/plain POST with its Origin.
    expect(await post(server.url, { host, origin: 'http://attacker.example', 'content-type': 'text/plain' }, initialize)).toBe(403);
    expect(
      await post(server.url, { host, origin: 'http://attacker.example', 'content-type': 'text/plain', 'mcp-session-id': sessionId }, call),
    ).toBe(403);
    expect(
      await post(
        server.url,
        {
          host,
          origin: 'http://attacker.example',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
        },
        call,
      ),
    ).toBe(403);
    // A DNS-rebound page reaches 127.0.0.1 under the attacker's host name.
    expect(
      await post(
        server.url,
        { host: `attacker.example:${new URL(server.url).port}`, 'content-type': 'application/json', 'mcp-session-id': sessionId },
        call,
      ),
    ).toBe(403);
    await expect(readFile(target, 'utf8')).rejects.toThrow(/ENOENT/);
    const own = await client.callTool({ name: 'write_file', arguments: { path: target, content: 'by the client' } });
    expect(own.isError).toBeFalsy();
    expect(await readFile(target, 'utf8')).toBe('by the client');
  });
});

describe('nexus mcp --http — people of an OpenID issuer (auth in the user config)', () => {
  it('publishes the resource metadata, points a 401 to it, and serves an issuer token like the static one', async () => {
    const audience = 'https://nexus.example.test/mcp';
    const idp = await startOidcProvider({ audience, users: { alice: {} } });
    try {
      await writeTree(dir.join('config', 'nexus'), {
        'nexus.config.json': JSON.stringify({ auth: { issuer: idp.issuer, audience, scopes: ['api'] } }),
      });
      const server = await start();
      const origin = new URL(server.url).origin;
      const metadata = await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(metadata).toMatchObject({ resource: audience, authorization_servers: [idp.issuer], scopes_supported: ['api'] });
      const refused = await send('POST', server.url, { host: new URL(server.url).host, 'content-type': 'application/json' }, '{}');
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);

      const client = await connect(server, await idp.token('alice'));
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await idp.close();
    }
  });

  it('gives each person of auth.users their own ceiling, and refuses a token no entry admits with 403', async () => {
    const audience = 'https://nexus.example.test/mcp';
    const idp = await startOidcProvider({
      audience,
      users: { alice: { email: 'alice@example.com' }, mallory: { email: 'mallory@evil.test' } },
    });
    try {
      const users = [{ match: { email: '*@example.com' }, preset: 'sandboxed', rules: [{ tool: 'read_file', decision: 'deny' }] }];
      await writeTree(dir.join('config', 'nexus'), {
        'nexus.config.json': JSON.stringify({ preset: 'trusted', families: ['fs', 'exec'], auth: { issuer: idp.issuer, audience, users } }),
      });
      const server = await start();
      const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

      const alice = await connect(server, await idp.token('alice'));
      expect(await names(alice)).not.toContain('bash_safe');
      const denied = await alice.callTool({ name: 'read_file', arguments: { path: 'x' } });
      expect(JSON.stringify(denied.content)).toMatch(/denied|rule/i);
      expect(await names(await connect(server))).toContain('bash_safe');

      const refused = await send(
        'POST',
        server.url,
        { host: new URL(server.url).host, 'content-type': 'application/json', authorization: `Bearer ${await idp.token('mallory')}` },
        '{}',
      );
      expect(refused.status).toBe(403);
    } finally {
      await idp.close();
    }
  });

  it("is refused in a working directory's config file", async () => {
    await writeTree(dir.join('project'), {
      'nexus.config.json': JSON.stringify({ auth: { issuer: 'https://idp.example.com', audience: 'x' } }),
    });
    await expect(start()).rejects.toThrow(/`auth` is not allowed here/);
  });
});
