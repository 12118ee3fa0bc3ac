import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveStdio } from './index.js';
import { createClient, createTestRegistry, PipeClientTransport } from './mcp-fixture.js';

let dir: TestDir;

beforeEach(async () => {
  dir = await testdir({ 'a.txt': 'alpha' });
});

afterEach(async () => {
  await dir.cleanup();
});

describe('serveStdio', () => {
  it('serves tools over newline-delimited JSON-RPC on the given streams', async () => {
    const { registry } = createTestRegistry(dir.path);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const served = await serveStdio(registry, { stdin, stdout });
    const client = createClient();
    await client.connect(new PipeClientTransport(stdin, stdout));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    expect((await client.callTool({ name: 'cat', arguments: { path: 'a.txt' } })).content).toEqual([{ type: 'text', text: 'alpha' }]);
    await client.close();
    await served.closed;
  });

  it('cancels running calls when the client closes stdin', async () => {
    const { registry, observations } = createTestRegistry(dir.path);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const served = await serveStdio(registry, { stdin, stdout });
    const client = createClient();
    await client.connect(new PipeClientTransport(stdin, stdout));
    const call = client.callTool({ name: 'wait_for_abort', arguments: {} });
    await observations.waiting;
    stdin.end();
    await served.closed;
    await expect.poll(() => observations.abortReason, { timeout: 10_000 }).toBeDefined();
    await client.close();
    await call.catch(() => undefined);
  });

  it('skips lines that are not JSON or not JSON-RPC messages, serves the next ones, and closes on a line over 10 MB', async () => {
    const { registry } = createTestRegistry(dir.path);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const served = await serveStdio(registry, { stdin, stdout });
    const answers = createInterface({ input: stdout })[Symbol.asyncIterator]();
    const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`);
    expect(JSON.parse((await answers.next()).value)).toMatchObject({ id: 1, result: { serverInfo: { name: 'nexus' } } });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\r\n`);
    stdin.write('not json\n');
    for (const message of [
      { jsonrpc: '1.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', extra: true },
      { jsonrpc: '2.0', id: null, method: 'tools/list' },
      { jsonrpc: '2.0', id: 4.5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 5, result: 'not an object' },
      { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { progressToken: {} } } },
      [{ jsonrpc: '2.0', id: 7, method: 'tools/list' }],
    ])
      stdin.write(`${JSON.stringify(message)}\n`);
    const call = { name: 'cat', arguments: { path: 'a.txt' } };
    const request = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: call });
    // One message in two chunks, and two in one.
    stdin.write(request.slice(0, 20));
    stdin.write(`${request.slice(20)}\n${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' })}\n`);
    const [first, second] = [JSON.parse((await answers.next()).value), JSON.parse((await answers.next()).value)];
    expect([first, second].sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: '2.0', id: 8, result: { content: [{ type: 'text', text: 'alpha' }] } },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]);
    stdin.write(Buffer.alloc(10 * 1024 * 1024 + 1, 'x'));
    await served.closed;
    stdout.end();
    expect((await answers.next()).done).toBe(true);
  });
});
