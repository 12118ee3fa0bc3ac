import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveStdio } from './index.js';
import { createClient, createTestRegistry } from './mcp-fixture.js';

/** The client end of a stdio connection, over in-memory pipes instead of a child process. */
class PipeClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #buffer = new ReadBuffer();

  constructor(
    readonly toServer: PassThrough,
    readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) this.onmessage?.(message);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

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
