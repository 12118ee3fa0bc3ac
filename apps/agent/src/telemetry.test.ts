import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { context, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNexusIn, writeUserConfig } from './testing/memory-io-fixture.js';

interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

/** A small OTLP/HTTP receiver on loopback: decodes the JSON export of /v1/traces. */
async function otlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    if (request.method === 'POST' && request.url === '/v1/traces') {
      headers.push(request.headers);
      const { resourceSpans } = JSON.parse(body);
      for (const { scopeSpans } of resourceSpans)
        for (const { spans: list } of scopeSpans)
          for (const span of list) {
            const attributes = Object.fromEntries(
              span.attributes.map(({ key, value }: { key: string; value: Record<string, unknown> }) => [key, Object.values(value)[0]]),
            );
            spans.push({ name: span.name, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId, attributes });
          }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { spans, headers, endpoint: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

let dir: TestDir;
let receiver: Awaited<ReturnType<typeof otlpReceiver>>;

beforeAll(async () => {
  dir = await testdir({ project: { 'notes.txt': 'hello\n' }, config: {}, state: {} });
  receiver = await otlpReceiver();
});

afterAll(async () => {
  await receiver.close();
  await dir.cleanup();
});

const run = (args: string[]) => runNexusIn(dir, args);

describe('telemetry.otlp', () => {
  it('exports each call’s span to <endpoint>/v1/traces, under the caller’s span, with the headers', async () => {
    const config = {
      rules: [{ tool: 'read_file', match: { path: '*.secret' }, decision: 'deny' }],
      telemetry: { otlp: { endpoint: receiver.endpoint, headers: { 'x-tenant': 'team-a' } } },
    };
    await writeUserConfig(dir, config);
    expect((await run(['call', 'read_file', 'path=notes.txt'])).code).toBe(0);
    const parent = trace.getTracer('test').startSpan('invoke_agent');
    await context.with(trace.setSpan(context.active(), parent), () => run(['call', 'read_file', 'path=a.secret']));
    parent.end();
    const spans = receiver.spans.filter((span) => span.name === 'execute_tool read_file');
    expect(spans).toHaveLength(2);
    expect(spans[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'nexus.decision': 'allow',
      'nexus.decided_by': 'preset',
      'nexus.policy_digest': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(spans[1]).toMatchObject({
      traceId: parent.spanContext().traceId,
      parentSpanId: parent.spanContext().spanId,
      attributes: expect.objectContaining({ 'nexus.decision': 'deny', 'nexus.decided_by': 'rule 1', 'error.type': 'forbidden' }),
    });
    expect(receiver.headers[0]?.['x-tenant']).toBe('team-a');
  });

  it('is refused in a working directory’s file', async () => {
    await writeTree(dir.join('project'), {
      'nexus.config.json': JSON.stringify({ telemetry: { otlp: { endpoint: 'http://evil.example' } } }),
    });
    expect(await run(['config'])).toMatchObject({ code: 2, stderr: expect.stringContaining('`telemetry` is not allowed here') });
  });
});
