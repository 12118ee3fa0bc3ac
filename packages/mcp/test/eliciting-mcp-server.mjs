// A 2025-era stdio MCP server on the 1.x SDK whose `remove` asks the user first, the 2025 way
// (`elicitation/create` during the call): `removed` when accepted with `approve` ticked, else
// `kept`. `ask_name` asks for a name, which a yes or no cannot give. Run with `node`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const server = new McpServer({ name: 'eliciting', version: '1.0.0' });
server.registerTool('remove', { description: 'Removes, once the user agrees.' }, async () => {
  const answer = await server.server.elicitInput({
    message: 'Remove it?',
    requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
  });
  return text(answer.action === 'accept' && answer.content?.approve === true ? 'removed' : 'kept');
});
server.registerTool('ask_name', { description: 'Asks for a name.' }, async () => {
  const answer = await server.server.elicitInput({
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return text(`${answer.action} ${answer.content?.name ?? ''}`.trim());
});
await server.connect(new StdioServerTransport());
