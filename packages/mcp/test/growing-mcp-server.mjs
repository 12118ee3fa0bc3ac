// A stdio MCP server written the way most are, with the SDK's McpServer, whose tools change while it
// runs: calling `add_tool` registers the tool `added`, and McpServer tells the client
// (notifications/tools/list_changed). Run with `node`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const server = new McpServer({ name: 'growing', version: '1.0.0' });
server.registerTool('add_tool', { description: 'Adds the tool `added`.' }, () => {
  server.registerTool('added', { description: 'Added while running.' }, () => text('added ran'));
  return text('added');
});
await server.connect(new StdioServerTransport());
