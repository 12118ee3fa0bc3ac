import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postStreamed } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody } from './http.js';

const CAP = 1024 * 1024;
let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A server that answers what `readBody` read, or 413 with `Connection: close` as the agent and MCP servers do. */
async function startEchoServer(): Promise<string> {
  server = createServer(async (request, response) => {
    const text = await readBody(request, CAP);
    if (text === undefined) response.writeHead(413, { connection: 'close' }).end('too large');
    else response.end(`read ${text.length}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('readBody', () => {
  it('reads a body up to its cap, declared or chunked', async () => {
    const url = await startEchoServer();
    const read = { status: 200, body: `read ${CAP}` };
    expect(await postStreamed(url, { bytes: CAP })).toEqual([read]);
    expect(await postStreamed(url, { bytes: CAP, declareLength: false })).toEqual([read]);
  });

  it.each([
    ['declared', true],
    ['chunked', false],
  ])('lets a client still sending a %s body over the cap get the 413, every time', async (_name, declareLength) => {
    const url = await startEchoServer();
    const outcomes = await postStreamed(url, { bytes: 8 * CAP, declareLength, times: 10 });
    expect(outcomes).toEqual(Array(10).fill({ status: 413, body: 'too large' }));
  });
});
