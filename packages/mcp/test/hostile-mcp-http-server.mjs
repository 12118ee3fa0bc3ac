// A Streamable HTTP MCP server for @nexus/mcp's import tests (stateless, on 127.0.0.1): the SDK's
// McpServer answers `big` and `echo`; `flood` is answered here, below the SDK, with one raw
// message of `bytes` bytes written a megabyte at a time, id first. POSTs are answered with
// text/event-stream, or with application/json when started with `--json`. Prints its URL, then
// serves until it is ended. Run with `node`.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const json = process.argv.includes('--json');
const megabyte = 'x'.repeat(1024 * 1024);

function mcpServer() {
  const server = new McpServer({ name: 'hostile-http', version: '1.0.0' });
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  const sized = { bytes: z.number().int() };
  server.registerTool('big', { description: 'Returns `bytes` bytes of text.', inputSchema: sized }, ({ bytes }) => text('x'.repeat(bytes)));
  server.registerTool('flood', { description: 'Answers with one raw message of `bytes` bytes of text.', inputSchema: sized }, () => {
    throw new Error('flood is answered below the SDK');
  });
  server.registerTool('echo', { description: 'Returns its arguments.', inputSchema: { id: z.number().int() } }, (args) =>
    text(`echo ${JSON.stringify(args)}`),
  );
  return server;
}

/** Resolves once `response` can take more, or is closed (the client stopped reading). */
function drained(response) {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Answers request `id` with `bytes` bytes of text, minding back-pressure, until the client stops reading. */
async function flood(response, id, bytes) {
  response.writeHead(200, { 'content-type': json ? 'application/json' : 'text/event-stream' });
  const write = async (chunk) => {
    if (!response.write(chunk)) await drained(response);
  };
  await write(
    `${json ? '' : 'event: message\ndata: '}{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`,
  );
  for (let left = bytes; left > 0 && !response.destroyed; left -= megabyte.length) {
    await write(left >= megabyte.length ? megabyte : megabyte.slice(0, left));
  }
  if (!response.destroyed) response.end(`"}]}}${json ? '' : '\n\n'}`);
}

const http = createServer(async (request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(405).end();
    return;
  }
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (body.method === 'tools/call' && body.params?.name === 'flood') {
    await flood(response, body.id, Number(body.params.arguments?.bytes));
    return;
  }
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
});
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
});
