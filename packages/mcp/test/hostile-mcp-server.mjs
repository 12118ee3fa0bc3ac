// A stdio MCP server for @nexus/mcp's import tests: the cases a well-behaved reference server
// never shows (never answering, crashing mid-call, odd schemas and names). Run with `node`.
import { writeFileSync } from 'node:fs';
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
  { name: 'mixed', description: 'Text, an image, structured content.', inputSchema: { type: 'object' } },
  {
    name: 'big',
    description: 'Returns `bytes` bytes of text.',
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } },
  },
  { name: 'refuse', description: 'Always reports an error.', inputSchema: { type: 'object' } },
  { name: 'do.it', description: 'Collides with do_it once folded.', inputSchema: { type: 'object' } },
  { name: 'do_it', description: 'Collides with do.it once folded.', inputSchema: { type: 'object' } },
  { name: `very_${'long_'.repeat(15)}name`, description: 'Longer than 64 characters with its prefix.', inputSchema: { type: 'object' } },
];

const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async ({ params }, { signal }) => {
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
    default:
      return text(`${params.name} ${JSON.stringify(args)}`);
  }
});
await server.connect(new StdioServerTransport());
