// A stdio MCP server for @nexus/mcp's import tests: the cases a well-behaved reference server
// never shows (never answering, crashing mid-call, flooding, odd schemas and names). Run with `node`.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const markerSchema = { type: 'object', properties: { marker: { type: 'string' } }, required: ['marker'] };
const tools = [
  { name: 'report_env', description: 'Returns its environment.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'touch', description: 'Writes `marker`.', inputSchema: markerSchema },
  { name: 'never_answers', description: 'Never answers; writes `marker` when called and again when cancelled.', inputSchema: markerSchema },
  { name: 'crash', description: 'Exits in the middle of the call.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'either',
    description: 'A top-level anyOf, with keywords the registry does not know.',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      anyOf: [
        { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        { type: 'object', properties: { slug: { $ref: '#/definitions/slug' } }, required: ['slug'] },
      ],
      definitions: { slug: { type: 'string', 'x-vendor': true } },
    },
    annotations: { readOnlyHint: true, destructiveHint: false },
  },
  {
    name: 'untyped',
    description: 'A schema that is not an object.',
    inputSchema: { type: 'string' },
    annotations: { destructiveHint: false },
  },
  {
    name: 'mixed',
    title: 'Mixed content',
    description: 'Text, an image, structured content.',
    inputSchema: { type: 'object' },
    outputSchema: {
      type: 'object',
      properties: { width: { type: 'integer' }, height: { type: 'integer' } },
      required: ['width', 'height'],
    },
    annotations: { idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'big',
    description: 'Returns `bytes` bytes of text.',
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } },
  },
  { name: 'refuse', description: 'Always reports an error.', inputSchema: { type: 'object' } },
  { name: 'do.it', description: 'Collides with do_it once folded.', inputSchema: { type: 'object' } },
  { name: 'do_it', description: 'Collides with do.it once folded.', inputSchema: { type: 'object' } },
  { name: `very_${'long_'.repeat(15)}name`, description: 'Longer than 64 characters with its prefix.', inputSchema: { type: 'object' } },
  {
    name: 'progress',
    description: 'Reports progress `steps` times, `intervalMs` apart, then answers.',
    inputSchema: { type: 'object', properties: { steps: { type: 'integer' }, intervalMs: { type: 'integer' } } },
  },
  {
    name: 'flood',
    description: 'Answers with one JSON-RPC line of `bytes` bytes of text, written straight to stdout, id first.',
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } },
  },
  {
    name: 'add_tool',
    description: 'Adds a tool named `name` and sends notifications/tools/list_changed.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
  { name: 'list_count', description: 'How often tools/list was answered.', inputSchema: { type: 'object' } },
  // Further tools a test lists in this variable, as JSON (e.g. one with a schema the registry refuses).
  ...JSON.parse(process.env.HOSTILE_EXTRA_TOOLS ?? '[]'),
];

/** Writes `bytes` bytes of text as the result of request `id`, a megabyte at a time, minding back-pressure. */
async function flood(id, bytes) {
  const megabyte = 'x'.repeat(1024 * 1024);
  const write = async (text) => {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  };
  await write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
  for (let left = bytes; left > 0; left -= megabyte.length) await write(left >= megabyte.length ? megabyte : megabyte.slice(0, left));
  await write('"}]}}\n');
}

let listings = 0;
const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  listings++;
  // With HOSTILE_RESTLESS=1, every listing is answered after saying the tools changed again.
  if (process.env.HOSTILE_RESTLESS === '1') await server.sendToolListChanged();
  return { tools };
});
server.setRequestHandler(CallToolRequestSchema, async ({ params }, { signal, requestId, sendNotification }) => {
  const args = params.arguments ?? {};
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  switch (params.name) {
    case 'report_env':
      return { content: [{ type: 'text', text: 'environment' }], structuredContent: { pid: process.pid, env: process.env } };
    case 'touch':
      writeFileSync(String(args.marker), 'touched');
      return text('touched');
    case 'never_answers':
      writeFileSync(String(args.marker), 'called');
      return new Promise(() => {
        signal.addEventListener('abort', () => writeFileSync(String(args.marker), 'cancelled'));
      });
    case 'crash':
      process.exit(3);
      break;
    case 'mixed':
      return {
        content: [
          { type: 'text', text: 'a picture:' },
          { type: 'image', mimeType: 'image/png', data: Buffer.alloc(1234).toString('base64') },
          { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'resource text' } },
        ],
        structuredContent: { width: 1, height: 2 },
      };
    case 'big':
      return text('x'.repeat(Number(args.bytes)));
    case 'refuse':
      return { content: [{ type: 'text', text: 'the server says no' }], isError: true };
    case 'progress': {
      const { steps = 1, intervalMs = 0 } = args;
      for (let step = 1; step <= steps && !signal.aborted; step++) {
        await delay(intervalMs);
        const progressToken = params._meta?.progressToken;
        if (progressToken !== undefined)
          await sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, total: steps } });
      }
      return text(signal.aborted ? 'cancelled' : `${steps} steps`);
    }
    case 'flood':
      await flood(requestId, Number(args.bytes));
      // The answer is written; the SDK must not send a second one.
      return new Promise(() => {});
    case 'malformed':
      // Listed through HOSTILE_EXTRA_TOOLS: a result whose text is a number, written past the SDK's own checks.
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: requestId, result: { content: [{ type: 'text', text: 42 }] } })}\n`);
      return new Promise(() => {});
    case 'noise':
      // Listed through HOSTILE_EXTRA_TOOLS: before its answer, a line that is not JSON, and a result for the call's id
      // with a member no JSON-RPC message has — a forgery the client must not take for the answer.
      process.stdout.write(
        `not json\n${JSON.stringify({ jsonrpc: '2.0', id: requestId, result: { content: [{ type: 'text', text: 'forged' }] }, forged: true })}\n`,
      );
      return text('the real answer');
    case 'add_tool':
      tools.push({ name: String(args.name), description: 'Added while running.', inputSchema: { type: 'object' } });
      await server.sendToolListChanged();
      return text('added');
    case 'list_count':
      return text(String(listings));
    default:
      return text(`${params.name} ${JSON.stringify(args)}`);
  }
});
await server.connect(new StdioServerTransport());
