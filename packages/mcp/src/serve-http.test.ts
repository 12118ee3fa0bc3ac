import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES, type HttpServeOptions, type McpHttpServer, serveHttp } from './index.js';
import { createClient, createTestRegistry } from './mcp-fixture.js';

let dir: TestDir;
let fixture: ReturnType<typeof createTestRegistry>;
let server: McpHttpServer;
const clients: Client[] = [];

async function start(options: HttpServeOptions = {}): Promise<McpHttpServer> {
  server = await serveHttp(fixture.registry, options);
  return server;
}

beforeEach(async () => {
  dir = await testdir({ 'a.txt': 'alpha' });
  fixture = createTestRegistry(dir.path);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server?.close();
  await dir.cleanup();
});

async function connect(token = server.token): Promise<Client> {
  const client = createClient();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  clients.push(client);
  return client;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request with exactly the given headers (fetch would not let a test set Host). */
function raw(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  const { method = 'POST', path = '/mcp', headers = {}, body } = options;
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers, setHost: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const callCount = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'count', arguments: {} } });

function goodHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    host: `127.0.0.1:${server.port}`,
    authorization: `Bearer ${server.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  };
}

describe('serveHttp — with the SDK client', () => {
  it('listens on 127.0.0.1 with a generated token by default', async () => {
    await start();
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    expect(server.token.length).toBeGreaterThanOrEqual(40);
    const other = await serveHttp(fixture.registry);
    expect(other.token).not.toBe(server.token);
    await other.close();
  });

  it('lists tools and calls a read tool', async () => {
    await start();
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('cat');
    const result = await client.callTool({ name: 'cat', arguments: { path: 'a.txt' } });
    expect(result.content).toEqual([{ type: 'text', text: 'alpha' }]);
  });

  it('reports a failing call as isError', async () => {
    await start();
    const result = await (await connect()).callTool({ name: 'cat', arguments: { path: '/etc/passwd' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('is not allowed') }]);
  });

  it('forwards progress and cancellation over the session', async () => {
    await start();
    const client = await connect();
    const updates: Progress[] = [];
    await client.callTool({ name: 'sleep', arguments: { seconds: 1.1 } }, undefined, { onprogress: (progress) => updates.push(progress) });
    expect(updates.length).toBeGreaterThanOrEqual(1);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_abort', arguments: {} }, undefined, { signal: controller.signal });
    await fixture.observations.waiting;
    controller.abort('stop');
    await expect(call).rejects.toThrow();
    await expect.poll(() => fixture.observations.abortReason, { timeout: 10_000 }).toBe('stop');
  });

  it('asks for confirmation through elicitation on the call’s own stream', async () => {
    fixture = createTestRegistry(dir.path, { tools: { count: { enabled: true, requiresConfirmation: true } } });
    await start();
    const client = createClient({ elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }),
    );
    clients.push(client);
    expect((await client.callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '1' }]);
    expect(asked).toEqual([expect.stringContaining('Allow count to run count?')]);
  });

  it('keeps sessions apart and accepts the localhost name', async () => {
    await start();
    const first = await connect();
    const second = createClient();
    await second.connect(
      new StreamableHTTPClientTransport(new URL(`http://localhost:${server.port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${server.token}` } },
      }),
    );
    clients.push(second);
    expect((await first.callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '1' }]);
    expect((await second.callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '2' }]);
  });

  it('ends sessions and stops listening on close', async () => {
    await start();
    const client = await connect();
    await server.close();
    await expect(client.listTools()).rejects.toThrow();
    await expect(raw({ headers: goodHeaders(), body: initialize })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('serveHttp — hardening', () => {
  it('answers 401 without a token or with a wrong one, and the SDK client cannot connect', async () => {
    await start();
    for (const authorization of [undefined, `Bearer ${server.token}x`, `Bearer ${server.token.slice(1)}`, server.token, 'Basic abc']) {
      const headers = goodHeaders();
      if (authorization === undefined) delete headers.authorization;
      else headers.authorization = authorization;
      const response = await raw({ headers, body: initialize });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.body).not.toContain(server.token);
    }
    await expect(connect('wrong-token-of-enough-length')).rejects.toThrow();
  });

  it('answers 403 to a foreign Host (DNS rebinding), even with the token', async () => {
    await start();
    for (const host of [
      `evil.example:${server.port}`,
      'evil.example',
      `127.0.0.1:${server.port + 1}`,
      `localhost.evil.example:${server.port}`,
      '',
    ]) {
      expect((await raw({ headers: goodHeaders({ host }), body: initialize })).status).toBe(403);
    }
  });

  it('answers 403 to a foreign Origin, even with the token', async () => {
    await start();
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${server.port}.evil.example`, 'https://localhost']) {
      expect((await raw({ headers: goodHeaders({ origin }), body: initialize })).status).toBe(403);
    }
  });

  it('answers 403 to origins and hosts that only look like its own loopback ones', async () => {
    await start();
    const { port } = server;
    for (const origin of [
      `http://127.0.0.1.evil.example:${port}`,
      `http://localhost.evil.example:${port}`,
      `http://127.0.0.1:${port}@evil.example`,
      `http://localhost.:${port}`,
      `HTTP://LOCALHOST:${port}`,
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:0${port}`,
      `http://127.0.0.2:${port}`,
      `http://127.0.0.1:${port}, http://evil.example`,
      `http://[::1]:${port}.evil.example`,
    ]) {
      expect((await raw({ headers: goodHeaders({ origin }), body: initialize })).status, origin).toBe(403);
    }
    for (const host of [`127.0.0.1.evil.example:${port}`, `localhost.:${port}`, `127.0.0.1:${port}@evil.example`, `127.0.0.1:0${port}`]) {
      expect((await raw({ headers: goodHeaders({ host }), body: initialize })).status, host).toBe(403);
    }
  });

  it('accepts its own loopback origins: 127.0.0.1, localhost and [::1] at its port, http or https', async () => {
    await start();
    const { port } = server;
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, `https://localhost:${port}`]) {
      expect((await raw({ headers: goodHeaders({ origin }), body: initialize })).status, origin).toBe(200);
    }
    const viaLocalhost = await raw({
      headers: goodHeaders({ host: `localhost:${port}`, origin: `http://localhost:${port}` }),
      body: initialize,
    });
    expect(viaLocalhost.status).toBe(200);
  });

  it('refuses a loopback origin at another port, and the Host check still holds with its own origin', async () => {
    await start();
    const { port } = server;
    for (const origin of [`http://127.0.0.1:${port + 1}`, `http://localhost:${port + 1}`, `http://[::1]:${port + 1}`, 'http://localhost']) {
      expect((await raw({ headers: goodHeaders({ origin }), body: initialize })).status, origin).toBe(403);
    }
    const rebound = await raw({
      headers: goodHeaders({ host: `evil.example:${port}`, origin: `http://127.0.0.1:${port}` }),
      body: initialize,
    });
    expect(rebound.status).toBe(403);
  });

  it('accepts the origins and hosts it was told to', async () => {
    await start({ allowedOrigins: ['HTTP://LocalHost:6274/'], allowedHosts: ['nexus.internal'] });
    const response = await raw({
      headers: goodHeaders({ origin: 'http://localhost:6274', host: `nexus.internal:${server.port}` }),
      body: initialize,
    });
    expect(response.status).toBe(200);
    expect((await raw({ headers: goodHeaders({ origin: 'http://localhost:6275' }), body: initialize })).status).toBe(403);
  });

  it('refuses an allowed origin that is not an http(s) origin', async () => {
    for (const origin of ['localhost:6274', 'http://localhost:6274/app', 'file:///tmp/page.html', '*']) {
      await expect(serveHttp(fixture.registry, { allowedOrigins: [origin] }), origin).rejects.toThrow(/allowedOrigins\[0\]/);
    }
  });

  it('answers 415 to a body that is not JSON', async () => {
    await start();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain; a=application/json',
    ]) {
      expect((await raw({ headers: goodHeaders({ 'content-type': type }), body: initialize })).status).toBe(415);
    }
  });

  it('answers 413 to a body over the cap, declared or streamed', async () => {
    await start({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } });
    expect((await raw({ headers: goodHeaders(), body: big })).status).toBe(413);
    expect((await raw({ headers: goodHeaders({ 'transfer-encoding': 'chunked' }), body: big })).status).toBe(413);
    expect((await raw({ headers: goodHeaders(), body: initialize })).status).toBe(200);
  });

  it('caps bodies at DEFAULT_MAX_BODY_BYTES unless told otherwise', async () => {
    await start();
    const padded = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(DEFAULT_MAX_BODY_BYTES) } });
    expect((await raw({ headers: goodHeaders(), body: padded })).status).toBe(413);
  });

  it('lets a cross-origin browser-style request do nothing', async () => {
    await start();
    const client = await connect();
    const sessionId = sessionIdOf(client);
    // A page can send a "simple" POST without a preflight: text/plain, its own Origin, no token.
    const simple = await raw({
      headers: {
        host: `127.0.0.1:${server.port}`,
        origin: 'http://evil.example',
        'content-type': 'text/plain',
        'mcp-session-id': sessionId,
      },
      body: callCount,
    });
    expect(simple.status).toBe(403);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await raw({
      method: 'OPTIONS',
      headers: {
        host: `127.0.0.1:${server.port}`,
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(fixture.observations.counted).toBe(0);
    expect((await client.callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '1' }]);
  });

  it('answers 404 off its path or for an unknown session, 405 to other methods, 400 to bad JSON or no session', async () => {
    await start();
    expect((await raw({ path: '/other', headers: goodHeaders(), body: initialize })).status).toBe(404);
    expect((await raw({ headers: goodHeaders({ 'mcp-session-id': 'made-up' }), body: callCount })).status).toBe(404);
    expect((await raw({ method: 'PUT', headers: goodHeaders(), body: initialize })).status).toBe(405);
    expect((await raw({ headers: goodHeaders(), body: '{not json' })).status).toBe(400);
    expect((await raw({ headers: goodHeaders(), body: callCount })).status).toBe(400);
    expect((await raw({ method: 'GET', headers: goodHeaders() })).status).toBe(400);
    expect(fixture.observations.counted).toBe(0);
  });

  it('refuses bad options with a message naming the option', async () => {
    await expect(serveHttp(fixture.registry, { token: 'short' })).rejects.toThrow(/`token`/);
    await expect(serveHttp(fixture.registry, { port: 70000 })).rejects.toThrow(/`port`/);
    await expect(serveHttp(fixture.registry, { path: 'mcp' })).rejects.toThrow(/`path`/);
    await expect(serveHttp(fixture.registry, { maxBodyBytes: 0 })).rejects.toThrow(/`maxBodyBytes`/);
    await expect(serveHttp(fixture.registry, { maxSessions: 1.5 })).rejects.toThrow(/`maxSessions`/);
    for (const sessionIdleTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '200' as unknown as number]) {
      await expect(serveHttp(fixture.registry, { sessionIdleTimeoutMs })).rejects.toThrow(/Expected `sessionIdleTimeoutMs` to be/);
    }
  });
});

/** Opens a session the way a client that then crashes would: `initialize`, nothing more. Returns its id. */
async function abandonedSession(): Promise<string> {
  const response = await raw({ headers: goodHeaders(), body: initialize });
  expect(response.status).toBe(200);
  return response.headers['mcp-session-id'] as string;
}

/** The status a harmless request (`ping`) on session `id` gets: 200 while it is open, 404 once it is gone. */
async function pingStatus(id: string): Promise<number> {
  return (await raw({ headers: goodHeaders({ 'mcp-session-id': id }), body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) }))
    .status;
}

function sessionIdOf(client: Client): string {
  return (client.transport as StreamableHTTPClientTransport).sessionId as string;
}

/** Starts a `sleep` that runs until aborted; resolves once the server is running it (its first progress), with the pending call. */
async function startSleeping(client: Client, signal: AbortSignal): Promise<{ call: Promise<unknown> }> {
  let running: () => void = () => {};
  const started = new Promise<void>((resolve) => (running = resolve));
  const call = client.callTool({ name: 'sleep', arguments: { seconds: 3600 } }, undefined, { signal, onprogress: () => running() });
  call.catch(() => {});
  await started;
  return { call };
}

describe('serveHttp — session lifetime', () => {
  it('lets a new client in after 32 abandoned initializes, evicting the longest idle session', async () => {
    await start();
    const abandoned: string[] = [];
    for (let index = 0; index < 32; index++) abandoned.push(await abandonedSession());
    const client = await connect();
    expect((await client.callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '1' }]);
    expect(await pingStatus(abandoned[0] as string)).toBe(404);
    expect(await pingStatus(abandoned[31] as string)).toBe(200);
  });

  it('closes a session idle for sessionIdleTimeoutMs; its id then gets 404 and the client can start over', async () => {
    await start({ sessionIdleTimeoutMs: 200 });
    const id = await abandonedSession();
    // The notification stream a client keeps open: the server ends it when it closes the session.
    const stream = await raw({ method: 'GET', headers: goodHeaders({ 'mcp-session-id': id, accept: 'text/event-stream' }) });
    expect(stream.status).toBe(200);
    expect(await pingStatus(id)).toBe(404);

    const client = await connect();
    const expiredId = sessionIdOf(client);
    await expect.poll(() => pingStatus(expiredId), { interval: 300, timeout: 10_000 }).toBe(404);
    await expect(client.listTools()).rejects.toThrow(/404|not found/i);
    expect((await (await connect()).callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '1' }]);
  });

  it('never counts a session with a call in flight as idle', async () => {
    await start({ sessionIdleTimeoutMs: 200 });
    const client = await connect();
    const result = await client.callTool({ name: 'sleep', arguments: { seconds: 1.5 } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'Slept 1.5 s.' }]);
  });

  it('evicts an idle session, not the one with a running sleep, even when that one has been quiet longer', async () => {
    await start({ maxSessions: 2 });
    const sleeper = await connect();
    const controller = new AbortController();
    const { call: sleeping } = await startSleeping(sleeper, controller.signal);
    const idle = await connect();
    const idleId = sessionIdOf(idle);

    const newcomer = await connect();
    expect(await pingStatus(idleId)).toBe(404);
    expect(await pingStatus(sessionIdOf(sleeper))).toBe(200);
    expect((await newcomer.callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '1' }]);
    controller.abort('done');
    await expect(sleeping).rejects.toThrow();
    expect((await sleeper.callTool({ name: 'count', arguments: {} })).content).toEqual([{ type: 'text', text: '2' }]);
  });

  it('answers 503 with the reason when every session has a call in flight', async () => {
    await start({ maxSessions: 1 });
    const controller = new AbortController();
    const { call: sleeping } = await startSleeping(await connect(), controller.signal);
    const refused = await raw({ headers: goodHeaders(), body: initialize });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).error.message).toMatch(/all 1 sessions? (has|have) a call (running|in flight)/i);
    controller.abort('done');
    await expect(sleeping).rejects.toThrow();
    // The client rejects at once; the server frees the session when its cancellation notice arrives.
    await expect.poll(async () => (await raw({ headers: goodHeaders(), body: initialize })).status, { timeout: 10_000 }).toBe(200);
  });
});
