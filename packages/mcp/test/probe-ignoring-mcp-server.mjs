// A 2025-era stdio MCP server on the 1.x SDK that, like servers of some other SDKs, says nothing to
// a request it gets before `initialize` (here: the 2026-07-28 `server/discover`). Tool `ping`
// answers `pong`. Run with `node`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'probe-ignoring', version: '1.0.0' });
server.registerTool('ping', { description: 'Answers pong.' }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
const transport = new StdioServerTransport();
await server.connect(transport);
const deliver = transport.onmessage;
transport.onmessage = (message) => {
  if (message.method !== 'server/discover') deliver?.(message);
};
