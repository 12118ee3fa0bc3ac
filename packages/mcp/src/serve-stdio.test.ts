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
});
