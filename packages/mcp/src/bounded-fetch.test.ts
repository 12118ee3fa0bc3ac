import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch } from './bounded-fetch.js';

const LIMIT = 1000;
const SSE = { 'content-type': 'text/event-stream' };
const JSON_TYPE = { 'content-type': 'application/json' };

let answer: (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => void answer(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Writes `parts` one write each, minding back-pressure, and ends the answer. */
async function send(response: ServerResponse, parts: readonly string[]): Promise<void> {
  for (const part of parts) if (!response.write(part)) await once(response, 'drain');
  response.end();
}

/** The parts of a message of `bytes` bytes with `id` first, written 100 bytes at a time. */
function message(id: number | string, bytes: number): string[] {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"text":"`;
  const tail = '"}}';
  const text = 'y'.repeat(bytes - head.length - tail.length);
  return [head, ...(text.match(/.{1,100}/g) ?? []), tail];
}

function oversized(id: number | string, size: string, bytes: number) {
  const message = `The server sent a message of ${size} bytes, over the limit of ${LIMIT} bytes; it was dropped.`;
  return { jsonrpc: '2.0', id, error: { code: -32603, message, data: { droppedBytes: bytes, maxMessageBytes: LIMIT } } };
}

function post(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const toolCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'big' } });

function fetchWithErrors() {
  const errors: string[] = [];
  return { fetch: boundedFetch(fetch, { maxMessageBytes: LIMIT, onerror: (error) => errors.push(error.message) }), errors };
}

describe('boundedFetch on an event stream', () => {
  it('bounds each event, not the stream: an event whose data is over the limit becomes the error for its id, and later events pass', async () => {
    const notifications = Array.from(
      { length: 20 },
      (_, n) => `event: message\nid: e${n}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"n":${n}}}\n\n`,
    );
    const after = 'data: {"jsonrpc":"2.0","id":8,"result":{}}\n\n';
    answer = (_request, response) => {
      response.writeHead(200, SSE);
      return send(response, [': keep-alive\n\n', ...notifications, 'event: message\nid: big\ndata: ', ...message(7, 5000), '\n\n', after]);
    };
    const { fetch: bounded, errors } = fetchWithErrors();
    const response = await bounded(url, post(toolCall(7)));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(
      [
        ': keep-alive\n\n',
        ...notifications,
        `event: message\nid: big\ndata: ${JSON.stringify(oversized(7, '5000', 5000))}\n\n`,
        after,
      ].join(''),
    );
    expect(errors).toEqual([]);
  });

  it('accepts an event whose data is exactly the limit', async () => {
    answer = (_request, response) => {
      response.writeHead(200, SSE);
      return send(response, ['data: ', ...message(1, LIMIT), '\n\n', 'data: ', ...message(2, LIMIT + 1), '\n\n']);
    };
    const text = await (await boundedFetch(fetch, { maxMessageBytes: LIMIT })(url, post(toolCall(1)))).text();
    expect(text).toBe(`data: ${message(1, LIMIT).join('')}\n\ndata: ${JSON.stringify(oversized(2, '1001', 1001))}\n\n`);
  });

  it('passes the data lines of an event on as they came, short and long ones', async () => {
    const event = [
      'data: {"jsonrpc":"2.0",',
      `data: "id":6,"result":{"text":"${'x'.repeat(3000)}"}`,
      'data',
      'data:}',
      'id: 6',
      '',
      '',
    ].join('\n');
    answer = (_request, response) => {
      response.writeHead(200, SSE);
      return send(response, [event, event]);
    };
    const text = await (await boundedFetch(fetch, { maxMessageBytes: 10_000 })(url, post(toolCall(6)))).text();
    // The id line comes before the data lines it followed: the SDK's parser keeps fields apart, so their order is no matter.
    const moved = event.replace('id: 6\n', '').replace(/^/, 'id: 6\n');
    expect(text).toBe(moved + moved);
  });

  it('drops an event over the limit that names no request, tells onerror, and goes on', async () => {
    answer = (_request, response) => {
      response.writeHead(200, SSE);
      return send(response, ['data: "', 'z'.repeat(3000), '"\n\n', 'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n']);
    };
    const { fetch: bounded, errors } = fetchWithErrors();
    expect(await (await bounded(url, post(toolCall(1)))).text()).toBe('\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    expect(errors).toEqual([
      `The server sent a message of 3002 bytes, over the limit of ${LIMIT} bytes; it was dropped (no request id found in it).`,
    ]);
  });

  it('adds up the data lines of one event, and reads CR and CRLF line ends', async () => {
    const lines = ['{"jsonrpc":"2.0","id":"a",', `"result":{"text":"${'x'.repeat(600)}`, `${'x'.repeat(600)}"}}`];
    const bytes = lines.join('\n').length;
    answer = (_request, response) => {
      response.writeHead(200, SSE);
      return send(response, [
        `data: ${lines[0]}\r`,
        `\ndata: ${lines[1]}\rdata: ${lines[2]}\r\n\r\n`,
        'data: {"jsonrpc":"2.0","id":"b","result":{}}\r\r',
        'data: {"jsonrpc":"2.0","id":"c",\ndata:"result":{}}\r\n\n',
      ]);
    };
    expect(await (await boundedFetch(fetch, { maxMessageBytes: LIMIT })(url, post(toolCall(1)))).text()).toBe(
      `data: ${JSON.stringify(oversized('a', String(bytes), bytes))}\n\n` +
        'data: {"jsonrpc":"2.0","id":"b","result":{}}\n\n' +
        'data: {"jsonrpc":"2.0","id":"c",\ndata:"result":{}}\n\n',
    );
  });

  it('fails the request of an event the stream ended in while it was being dropped', async () => {
    answer = (_request, response) => {
      response.writeHead(200, SSE);
      return send(response, ['data: ', ...message(5, 3000)]);
    };
    const text = await (await boundedFetch(fetch, { maxMessageBytes: LIMIT })(url, post(toolCall(5)))).text();
    expect(text).toBe(`data: ${JSON.stringify(oversized(5, '3000', 3000))}\n\n`);
  });

  it('reads the standalone GET stream as events whatever its type', async () => {
    answer = (_request, response) => {
      response.writeHead(200, JSON_TYPE);
      return send(response, ['data: ', ...message(4, 5000), '\n\n']);
    };
    const response = await boundedFetch(fetch, { maxMessageBytes: LIMIT })(url, { headers: { accept: 'text/event-stream' } });
    expect(await response.text()).toBe(`data: ${JSON.stringify(oversized(4, '5000', 5000))}\n\n`);
  });
});

describe('boundedFetch on a JSON answer', () => {
  it('answers a body over the limit with the error for the request the POST carried, and reads no further', async () => {
    let written = 0;
    let closed = false;
    answer = async (_request, response) => {
      response.on('close', () => {
        closed = true;
      });
      response.writeHead(200, { ...JSON_TYPE, 'mcp-session-id': 'session-1' });
      response.write('{"jsonrpc":"2.0","id":12,"result":{"text":"');
      // 16 MiB, chunked (no content-length), until the client stops reading.
      for (; written < 16 * 1024 * 1024 && !response.destroyed; written += 1024) {
        if (!response.write('y'.repeat(1024))) await Promise.race([once(response, 'drain'), once(response, 'close')]);
      }
      if (!response.destroyed) response.end('"}}');
    };
    const response = await boundedFetch(fetch, { maxMessageBytes: LIMIT })(url, post(toolCall(12)));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBe('session-1');
    const body = (await response.json()) as ReturnType<typeof oversized>;
    expect(body).toEqual(oversized(12, `at least ${body.error.data.droppedBytes}`, body.error.data.droppedBytes));
    expect(body.error.data.droppedBytes).toBeGreaterThan(LIMIT);
    await waitUntil(() => closed, 'the server to see its answer given up');
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses a body declared longer than the limit without reading it, with the error for each request of a batch', async () => {
    answer = (_request, response) => {
      // The rest never comes: reading it would wait for ever.
      response.writeHead(200, { ...JSON_TYPE, 'content-length': '5000' });
      response.write(message(1, 5000)[0]);
    };
    const batch = [toolCall(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, toolCall(2)];
    const response = await boundedFetch(fetch, { maxMessageBytes: LIMIT })(url, post(batch));
    expect(await response.json()).toEqual([oversized(1, '5000', 5000), oversized(2, '5000', 5000)]);
  });

  it('passes a body within the limit on as it came', async () => {
    const body = message(3, LIMIT).join('');
    answer = (_request, response) => {
      response.writeHead(200, JSON_TYPE);
      return send(response, message(3, LIMIT));
    };
    expect(await (await boundedFetch(fetch, { maxMessageBytes: LIMIT })(url, post(toolCall(3)))).text()).toBe(body);
  });

  it('fails the read of a body over the limit when the POST carried no request', async () => {
    answer = (_request, response) => {
      response.writeHead(200, JSON_TYPE);
      return send(response, message(3, 5000));
    };
    const response = await boundedFetch(fetch, { maxMessageBytes: LIMIT })(
      url,
      post({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    await expect(response.text()).rejects.toThrow(
      /^The server sent a message of at least \d+ bytes, over the limit of 1000 bytes; it was dropped \(no request id found in it\)\.$/,
    );
  });
});

describe('boundedFetch on other answers', () => {
  it('cuts the body of an HTTP error at the limit, and leaves other answers as they are', async () => {
    let status = 500;
    answer = (_request, response) => {
      response.writeHead(status, { 'content-type': 'text/plain' });
      return send(response, message(1, 5000));
    };
    const bounded = boundedFetch(fetch, { maxMessageBytes: LIMIT });
    const failed = await bounded(url, post(toolCall(1)));
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe(
      `${message(1, 5000).join('').slice(0, LIMIT)}\n[the rest of the answer, past ${LIMIT} bytes, was not read]`,
    );
    status = 200;
    expect(await (await bounded(url, post(toolCall(1)))).text()).toBe(message(1, 5000).join(''));
  });
});
