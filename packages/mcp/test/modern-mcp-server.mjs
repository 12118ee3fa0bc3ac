// A 2026-07-28-only MCP server on the v2 SDK (2025-era openings are refused): tool `shout`;
// `grow`, which adds tool `whisper` and announces the change; `remove`, which first asks the user
// (`input_required`, a form with one `approve` checkbox) and answers `removed` or `kept`. Over stdio, or with `--http` over
// Streamable HTTP on 127.0.0.1 (it prints its URL).
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

let grown = false;
let announce = () => {};

function build() {
  const server = new McpServer({ name: 'modern', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const text = z.object({ text: z.string() });
  server.registerTool('shout', { description: 'Shouts.', inputSchema: text }, ({ text: said }) => ({
    content: [{ type: 'text', text: said.toUpperCase() }],
  }));
  const whisper = () =>
    server.registerTool('whisper', { description: 'Whispers.', inputSchema: text }, ({ text: said }) => ({
      content: [{ type: 'text', text: said.toLowerCase() }],
    }));
  server.registerTool('grow', { description: 'Adds whisper.', inputSchema: z.object({}) }, () => {
    // Over stdio this instance serves the whole connection; over HTTP each request gets a new one.
    if (!grown) whisper();
    grown = true;
    announce();
    return { content: [{ type: 'text', text: 'grown' }] };
  });
  if (grown) whisper();
  server.registerTool('remove', { description: 'Removes, once the user agrees.', inputSchema: z.object({}) }, (_args, ctx) => {
    if (ctx.mcpReq.inputResponses === undefined) {
      const requestedSchema = { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] };
      return inputRequired({ inputRequests: { approve: inputRequired.elicit({ mode: 'form', message: 'Remove it?', requestedSchema }) } });
    }
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'approve');
    return { content: [{ type: 'text', text: answer?.approve === true ? 'removed' : 'kept' }] };
  });
  return server;
}

if (process.argv.includes('--http')) {
  const handler = createMcpHandler(build, { legacy: 'reject' });
  announce = () => handler.notify.toolsChanged();
  const http = createServer(toNodeHandler(handler));
  http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
} else {
  let pinned;
  announce = () => void pinned?.sendToolListChanged();
  serveStdio(
    () => {
      pinned = build();
      return pinned;
    },
    { legacy: 'reject' },
  );
}
