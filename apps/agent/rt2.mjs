import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

writeFileSync(
  '/tmp/bx/sample.txt',
  Array.from({ length: 200 }, (_, line) => `line ${line + 1}: the quick brown fox jumps over the lazy dog`).join('\n'),
);
async function bench(args, name, a) {
  const c = new Client({ name: 'b', version: '1' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  for (let i = 0; i < 300; i++) await c.callTool({ name, arguments: a });
  const t = [];
  for (let i = 0; i < 2000; i++) {
    const s = performance.now();
    await c.callTool({ name, arguments: a });
    t.push(performance.now() - s);
  }
  t.sort((x, y) => x - y);
  console.log(name, t[1000].toFixed(3));
  await c.close();
}
await bench(['dist/cli.js', 'mcp', '--cwd', '/tmp/bx'], 'read_file', { path: '/tmp/bx/sample.txt' });
await bench(['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/tmp/bx'], 'read_text_file', {
  path: '/tmp/bx/sample.txt',
});
