import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { defineSkill, ToolResult } from '@nexus/core';
import { runProcess } from '@nexus/process';
import { startRoundRobinProxy, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpServeOptions, type McpHttpServer, serveHttp, serveStdio } from './index.js';
import { createClient, createModernClient, createTestRegistry, MODERN_REVISION, PipeClientTransport } from './mcp-fixture.js';

let dir: TestDir;
const servers: McpHttpServer[] = [];
const clients: { close(): Promise<void> }[] = [];

beforeEach(async () => {
  dir = await testdir({ 'a.txt': 'alpha' });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await dir.cleanup();
});

function confirmingRegistry() {
  return createTestRegistry(dir.path, { tools: { count: { enabled: true, requiresConfirmation: true } } });
}

async function startHttp(registry = createTestRegistry(dir.path).registry, options: HttpServeOptions = {}): Promise<McpHttpServer> {
  const server = await serveHttp(registry, options);
  servers.push(server);
  return server;
}

async function connectModern(server: McpHttpServer, client: Client = createModernClient()): Promise<Client> {
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }),
  );
  clients.push(client);
  return client;
}

function textOf(result: object): string {
  return ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';
}

/** A 2026-07-28 client that answers each confirmation with `approve`, and the questions it was asked. */
function confirmingModernClient(approve: boolean) {
  const client = createModernClient({ elicitation: { form: {} } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { approve } };
  });
  return { client, asked };
}

describe('serving both protocol revisions', () => {
  it('serves a 2026-07-28 client (v2 SDK) over HTTP without a session: list and call', async () => {
    const client = await connectModern(await startHttp());
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN_REVISION);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('cat');
    expect(textOf(await client.callTool({ name: 'cat', arguments: { path: 'a.txt' } }))).toBe('alpha');
  });

  it('serves a 2026-07-28 client and a 2025-11-25 client (v1 SDK) over stdio', async () => {
    for (const client of [createModernClient(), createClient()]) {
      const { registry } = createTestRegistry(dir.path);
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const served = await serveStdio(registry, { stdin, stdout });
      await client.connect(new PipeClientTransport(stdin, stdout));
      expect(textOf(await client.callTool({ name: 'cat', arguments: { path: 'a.txt' } }))).toBe('alpha');
      await client.close();
      await served.closed;
    }
  });

  it('gives a 2025-era client (v2 SDK, legacy mode) its session over HTTP, as before', async () => {
    const server = await startHttp();
    const { Client: V2Client } = await import('@modelcontextprotocol/client');
    const client = await connectModern(server, new V2Client({ name: 'legacy-v2', version: '1' }));
    expect(client.getProtocolEra()).toBe('legacy');
    expect(textOf(await client.callTool({ name: 'cat', arguments: { path: 'a.txt' } }))).toBe('alpha');
  });

  it('gives a 2026-07-28 client a declared outputSchema and title, and the data as structuredContent its client checks', async () => {
    const { registry } = createTestRegistry(dir.path);
    const outputSchema = { type: 'object' as const, properties: { size: { type: 'integer' } }, required: ['size'] };
    registry.register(
      defineSkill({
        name: 'measure',
        title: 'Measure',
        description: 'Measures.',
        readOnly: true,
        idempotent: true,
        parameters: { type: 'object' },
        outputSchema,
        create: () => () => ToolResult.ok('size 2', { size: 2 }),
      }),
    );
    const client = await connectModern(await startHttp(registry));
    const measure = (await client.listTools()).tools.find((tool) => tool.name === 'measure');
    expect(measure).toMatchObject({ title: 'Measure', outputSchema, annotations: { title: 'Measure', idempotentHint: true } });
    expect(await client.callTool({ name: 'measure', arguments: {} })).toMatchObject({
      structuredContent: { size: 2 },
      content: [{ type: 'text', text: 'size 2' }],
    });
  });

  it('gives a 2026-07-28 listing a ttlMs', async () => {
    const server = await startHttp();
    const response = await modernRequest(server, 'tools/list', {});
    expect(response.result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'private' });
    expect((response.result as { ttlMs: number }).ttlMs).toBeGreaterThan(0);
  });
});

/** A 2026-07-28 SDK client that counts the tool-list changes it hears, without refreshing. */
async function listeningClient() {
  let changes = 0;
  const client = new (await import('@modelcontextprotocol/client')).Client(
    { name: 'listening', version: '1' },
    {
      versionNegotiation: { mode: { pin: MODERN_REVISION } },
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => void changes++ } },
    },
  );
  return { client, changes: () => changes };
}

/** The tool a registry change adds. */
const shout = defineSkill({
  name: 'shout',
  description: 'Shouts.',
  parameters: { type: 'object', properties: {} },
  create: () => () => ToolResult.ok('HEY'),
});

describe('a changing tool list, to a 2026-07-28 client over HTTP', () => {
  it('announces each registry change on the listen stream of the client, and the cached listing gives way to the new one', async () => {
    const { registry } = createTestRegistry(dir.path);
    const { client, changes } = await listeningClient();
    await connectModern(await startHttp(registry), client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('shout');
    registry.replace(shout);
    await expect.poll(changes, { timeout: 10_000 }).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('shout');
  });
});

describe('a changing tool list, to a 2026-07-28 client over stdio', () => {
  it('announces each registry change on the listen stream of the connection', async () => {
    const { registry } = createTestRegistry(dir.path);
    const { client, changes } = await listeningClient();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const served = await serveStdio(registry, { stdin, stdout });
    await client.connect(new PipeClientTransport(stdin, stdout));
    registry.replace(shout);
    await expect.poll(changes, { timeout: 10_000 }).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('shout');
    await client.close();
    await served.closed;
  });
});

describe('the HTTP guard, for 2026-07-28 requests too', () => {
  it('answers 401 to a stateless request without the token, before anything runs', async () => {
    const { registry, observations } = createTestRegistry(dir.path);
    const server = await startHttp(registry);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN_REVISION,
        'mcp-method': 'tools/call',
        'mcp-name': 'count',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'count',
          arguments: {},
          _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_REVISION, 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    });
    expect(response.status).toBe(401);
    expect(observations.counted).toBe(0);
  });
});

describe('confirmations to a 2026-07-28 client: input_required', () => {
  it('answers input_required with the question; the retry carrying approve runs the tool once', async () => {
    const { registry, observations } = confirmingRegistry();
    const { client, asked } = confirmingModernClient(true);
    await connectModern(await startHttp(registry), client);
    const result = await client.callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('1');
    expect(observations.counted).toBe(1);
    expect(asked).toEqual([expect.stringContaining('Allow count to run count?')]);
  });

  it('refuses when the user does not tick approve', async () => {
    const { registry, observations } = confirmingRegistry();
    const { client } = confirmingModernClient(false);
    await connectModern(await startHttp(registry), client);
    const result = await client.callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('needs confirmation');
    expect(observations.counted).toBe(0);
  });

  it('refuses as today a client that cannot be asked', async () => {
    const { registry, observations } = confirmingRegistry();
    const result = await (await connectModern(await startHttp(registry))).callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBe(true);
    expect(observations.counted).toBe(0);
  });
});

/** Headers and `_meta` envelope a 2026-07-28 request carries (what the v2 client sends), by hand so a test can alter the retry. */
async function modernRequest(server: McpHttpServer, method: string, params: Record<string, unknown>, name?: string) {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_REVISION,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

const approve = { confirm: { action: 'accept', content: { approve: true } } };

async function askToCount(server: McpHttpServer, args: Record<string, unknown> = {}): Promise<string> {
  const first = await modernRequest(server, 'tools/call', { name: 'count', arguments: args }, 'count');
  expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
  return first.result?.requestState as string;
}

/** The retry of a `tools/call` that carries the person's approval and the `requestState` it was asked with. */
function retryApproved(server: McpHttpServer, requestState: string, name = 'count', args: object = {}) {
  return modernRequest(server, 'tools/call', { name, arguments: args, inputResponses: approve, requestState }, name);
}

describe('confirmations to a 2026-07-28 client: the requestState', () => {
  it('is refused when tampered with, and the tool does not run', async () => {
    const { registry, observations } = confirmingRegistry();
    const server = await startHttp(registry);
    const state = await askToCount(server);
    const [version, body, mac] = state.split('.');
    const payload = JSON.parse(Buffer.from(body as string, 'base64url').toString());
    payload.exp += 3600;
    const forged = [version, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.');
    const retry = await retryApproved(server, forged);
    expect(retry.error).toMatchObject({ code: -32602 });
    expect(observations.counted).toBe(0);
  });

  it('is refused for another call or other arguments than the one it was given for', async () => {
    const { registry, observations } = createTestRegistry(dir.path, {
      tools: { count: { enabled: true, requiresConfirmation: true }, stats: { enabled: true, requiresConfirmation: true } },
    });
    const server = await startHttp(registry);
    const state = await askToCount(server);
    const otherTool = await retryApproved(server, state, 'stats');
    expect(otherTool.result).toMatchObject({ isError: true });
    expect(textOf(otherTool.result ?? {})).toContain('not given for this call');
    const otherArgs = await retryApproved(server, state, 'count', { extra: 1 });
    expect(otherArgs.result).toMatchObject({ isError: true });
    expect(observations.counted).toBe(0);
    const honest = await retryApproved(server, state);
    expect(honest.result).toMatchObject({ content: [{ type: 'text', text: '1' }] });
  });

  it('is refused when signed by another server (another key) or under another policy', async () => {
    const { registry, observations } = confirmingRegistry();
    const state = await askToCount(await startHttp(registry));
    const other = await startHttp(registry);
    const retry = await retryApproved(other, state);
    expect(retry.error).toMatchObject({ code: -32602 });
    expect(observations.counted).toBe(0);

    const key = randomBytes(32).toString('base64url');
    const strict = await startHttp(registry, { stateKey: key });
    const lenient = createTestRegistry(dir.path, { preset: 'trusted', tools: { count: { enabled: true, requiresConfirmation: true } } });
    const sameKeyOtherPolicy = await startHttp(lenient.registry, { stateKey: key });
    const minted = await askToCount(strict);
    const replayed = await retryApproved(sameKeyOtherPolicy, minted);
    expect(replayed.result).toMatchObject({ isError: true });
    expect(lenient.observations.counted).toBe(0);
  });

  it('is refused once expired', async () => {
    const { registry, observations } = confirmingRegistry();
    const server = await startHttp(registry, { confirmationTimeoutSeconds: 1 });
    const state = await askToCount(server);
    // The expiry has whole-second resolution: two seconds later it has passed whatever the clock read.
    await delay(2_000);
    const retry = await retryApproved(server, state);
    expect(retry.error).toMatchObject({ code: -32602 });
    expect(observations.counted).toBe(0);
  });
});

describe('stateless HTTP behind a round-robin load balancer', () => {
  it('serves one 2026-07-28 client from two servers sharing a state key: list, call, and a confirmation retried on the other', async () => {
    const token = randomBytes(24).toString('base64url');
    const stateKey = randomBytes(32);
    const first = confirmingRegistry();
    const second = confirmingRegistry();
    const backends = [await startHttp(first.registry, { token, stateKey }), await startHttp(second.registry, { token, stateKey })];
    const balancer = await startRoundRobinProxy(backends.map((backend) => backend.port));
    try {
      const { client, asked } = confirmingModernClient(true);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${balancer.origin}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(client);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('count');
      expect(textOf(await client.callTool({ name: 'cat', arguments: { path: 'a.txt' } }))).toBe('alpha');
      const before = balancer.hits.length;
      expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('1');
      expect(asked).toHaveLength(1);
      const [question, retry] = balancer.hits.slice(before);
      expect(retry).not.toBe(question);
      // The question came from one server, the approved retry ran on the other.
      expect([first.observations.counted, second.observations.counted].sort()).toEqual([0, 1]);
    } finally {
      await balancer.close();
    }
  });
});

describe('the Inspector CLI (a 2025-era client)', () => {
  const inspector = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/build/index.js');

  it('lists and calls tools over HTTP, in a session', async () => {
    const server = await startHttp();
    const inspect = (...args: string[]) =>
      runProcess(
        process.execPath,
        [inspector, server.url, '--transport', 'http', '--header', `Authorization: Bearer ${server.token}`, ...args],
        {
          cwd: dir.path,
          env: { PATH: process.env.PATH ?? '' },
        },
      );
    const listed = await inspect('--method', 'tools/list');
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tools.map((tool: { name: string }) => tool.name)).toContain('cat');
    const called = await inspect('--method', 'tools/call', '--tool-name', 'cat', '--tool-arg', 'path=a.txt');
    expect(JSON.parse(called.stdout).content).toEqual([{ type: 'text', text: 'alpha' }]);
  });
});
