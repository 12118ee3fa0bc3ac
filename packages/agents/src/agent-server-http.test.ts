import { once } from 'node:events';
import { type IncomingHttpHeaders, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { postStreamed, waitUntil } from '@nexus/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runtimeName, startTestServer, type TestServer } from '../test/server-fixture.js';
import { AgentPool, parseAgentSettings, serveAgents } from './index.js';

let fixture: TestServer | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A raw HTTP request, for what fetch will not send (a foreign Host, huge headers, other methods, paths as written). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; path?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const target = { method: options.method ?? 'POST', headers: options.headers, ...(options.path ? { path: options.path } : {}) };
    const outgoing = request(url, target, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('the agent server refuses', () => {
  // One server for these: what one of them asks changes nothing the next one sees.
  let shared: TestServer;
  beforeAll(async () => {
    shared = await startTestServer();
  });
  afterAll(() => shared?.close());

  it.each([
    ['no Authorization header', {}, 401],
    ['a wrong token', { authorization: 'Bearer nxk_wrong' }, 403],
    ['a token of another scheme', { authorization: 'Basic abc' }, 403],
  ])('%s', async (_name, headers, status) => {
    const { server } = shared;
    const answer = await raw(`${server.url}/`, {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents' }),
    });
    expect(answer.status).toBe(status);
  });

  it('a foreign Host (DNS rebinding) and a browser Origin, even with the token', async () => {
    const { server } = shared;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents' });
    const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    expect((await raw(`${server.url}/`, { headers: { ...auth, host: `evil.example.com:${server.port}` }, body })).status).toBe(403);
    expect((await raw(`${server.url}/`, { headers: { ...auth, host: `localhost.evil.com:${server.port}` }, body })).status).toBe(403);
    expect((await raw(`${server.url}/`, { headers: { ...auth, origin: 'https://evil.example.com' }, body })).status).toBe(403);
    expect((await raw(`${server.url}/`, { headers: { ...auth, host: `localhost:${server.port}` }, body })).status).toBe(200);
  });

  it('other methods than POST, unknown paths, bodies over 1 MiB and headers over 32 KiB', async () => {
    const { server } = shared;
    const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents' });
    expect((await raw(`${server.url}/`, { method: 'GET', headers: auth })).status).toBe(405);
    expect((await raw(`${server.url}/agents`, { headers: auth, body })).status).toBe(404);
    expect((await raw(`${server.url}/agent/..%2Fetc`, { headers: auth, body })).status).toBe(404);
    expect((await raw(`${server.url}/agent/a/b`, { headers: auth, body })).status).toBe(404);
    expect(
      (
        await raw(`${server.url}/`, {
          headers: auth,
          body: `{"jsonrpc":"2.0","id":1,"method":"list_agents","pad":"${'x'.repeat(1024 * 1024)}"}`,
        })
      ).status,
    ).toBe(413);
    expect((await raw(`${server.url}/`, { headers: { ...auth, 'x-pad': 'x'.repeat(40 * 1024) }, body })).status).toBe(431);
    expect((await raw(`${server.url}/rpc`, { headers: auth, body })).status).toBe(200);
  });

  it.each(['GET', 'PUT', 'DELETE', 'OPTIONS', 'FOO'])('the method %s with 405 and Allow: POST', async (method) => {
    const { server } = shared;
    const answer = await raw(`${server.url}/`, { method, headers: { authorization: `Bearer ${server.token}` } });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
  });

  it('paths as sent: dot segments, encoded or not, are no way to / and an agent id must be valid once decoded', async () => {
    const { server, result } = shared;
    await result('/', 'create_agent', { agent_id: 'a' });
    const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents' });
    for (const path of [
      '/agent/%2e%2e',
      '/agent/%2E%2E',
      '/agent/.%2e',
      '/agent/..',
      '/agent/%2e',
      '/agent/a/..',
      '/agent/a/%2e%2e',
      '/x/../rpc',
      '/agent/a%2Fb',
      '/agent/%ZZ',
      '/agent/%00a',
    ]) {
      const answer = await raw(server.url, { path, headers: auth, body });
      expect({ path, status: answer.status, code: JSON.parse(answer.body).error?.code }).toEqual({ path, status: 404, code: -32600 });
    }
    const context = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_context' });
    expect((await raw(server.url, { path: '/agent/%61', headers: auth, body: context })).status).toBe(200);
  });

  it.each([
    ['declared', true],
    ['chunked', false],
  ])('a %s body over 1 MiB with a 413 that a client still sending gets, every time', async (_name, declareLength) => {
    const { server } = shared;
    const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    const outcomes = await postStreamed(`${server.url}/`, { bytes: 8 * 1024 * 1024, headers, declareLength, times: 10 });
    expect(outcomes.map((outcome) => ('status' in outcome ? outcome.status : outcome.error))).toEqual(Array(10).fill(413));
  });

  it('a connection past the 32nd with 503, and serves again once they close', async () => {
    const { server, rpc } = shared;
    const held: Socket[] = [];
    try {
      for (let index = 0; index < 32; index++) {
        const socket = connect(server.port, '127.0.0.1');
        await once(socket, 'connect');
        held.push(socket);
      }
      // The server counts a connection when it accepts it; one request through the full house shows it.
      const answer = await raw(`${server.url}/`, {
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents' }),
      });
      expect(answer.status).toBe(503);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await waitUntil(async () => (await rpc('/', 'list_agents')).status === 200, 'the server to serve again');
  });

  it.each([
    ['a body that is not JSON', '{"jsonrpc":', 400, -32700],
    ['a batch', JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'list_agents' }]), 400, -32600],
    ['a boolean id', JSON.stringify({ jsonrpc: '2.0', id: true, method: 'list_agents' }), 400, -32600],
    ['another JSON-RPC version', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'list_agents' }), 400, -32600],
    ['positional params', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'destroy_agent', params: ['a'] }), 200, -32602],
    ['params that are a string', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents', params: 'a' }), 400, -32600],
    ['params that are null', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents', params: null }), 400, -32600],
    ['params that are a number', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents', params: 1 }), 400, -32600],
    ['an unknown method', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'drop_tables' }), 200, -32601],
    [
      'an agent method on the server path',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'send', params: { content: 'x' } }),
      200,
      -32601,
    ],
    ['an unknown param', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_agents', params: { all: true } }), 200, -32602],
    ['an invalid agent id', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'create_agent', params: { agent_id: '../x' } }), 200, -32602],
    ['a yolo agent', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'create_agent', params: { preset: 'yolo' } }), 200, -32602],
  ])('%s', async (_name, body, status, code) => {
    const { server } = shared;
    const answer = await raw(`${server.url}/`, {
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body).error.code).toBe(code);
  });

  it('a send with blank content, an empty or boolean request_id', async () => {
    const { rpc, result } = shared;
    await result('/', 'create_agent', { agent_id: 'blank' });
    for (const params of [{ content: '   ' }, { content: 'x', request_id: '' }, { content: 'x', request_id: false }]) {
      const answer = await rpc('/agent/blank', 'send', params);
      expect(answer.body.error?.code).toBe(-32602);
    }
  });
});

describe('starting the agent server', () => {
  it('stops when shutdown_server is called, after answering', async () => {
    fixture = await startTestServer();
    const { result, server } = fixture;
    expect(await result('/', 'shutdown_server')).toEqual({ success: true, message: 'The server is shutting down.' });
    await server.closed;
    await expect(fetch(`${server.url}/`, { method: 'POST' })).rejects.toThrow();
  });

  it('closes without waiting on a connection that never sent a request (a client reconnecting, a port scan)', async () => {
    fixture = await startTestServer();
    const silent = connect(fixture.server.port, '127.0.0.1');
    await once(silent, 'connect');
    const hungUp = once(silent, 'close');
    await fixture.server.close();
    await hungUp;
  });
});

describe.skipIf(runtimeName() !== 'local')('starting the local process (its address and token; no runtime takes part)', () => {
  const settings = parseAgentSettings({});

  it('listens on loopback only', async () => {
    const pool = new AgentPool({ settings, families: [], cwd: process.cwd(), stateDir: '/nonexistent' });
    await expect(serveAgents(pool, { port: 0, host: '0.0.0.0', env: {} })).rejects.toThrow(/loopback only/);
  });

  it('takes NEXUS_API_KEY as the token and writes no file; a short one is refused', async () => {
    const pool = new AgentPool({ settings, families: [], cwd: process.cwd(), stateDir: '/nonexistent' });
    await expect(serveAgents(pool, { port: 0, env: { NEXUS_API_KEY: 'short' } })).rejects.toThrow(/at least 16 characters/);
    const server = await serveAgents(pool, { port: 0, env: { NEXUS_API_KEY: 'a-long-enough-api-key' }, stateDir: '/nonexistent' });
    try {
      expect(server.token).toBe('a-long-enough-api-key');
      expect(server.tokenFile).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
