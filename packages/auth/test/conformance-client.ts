// The client `@modelcontextprotocol/conformance client --command` runs for its auth/* scenarios:
// Nexus's importer side — FileOAuthClient signs in (the person at the browser played by following
// the authorization server's redirects), then an MCP client lists and calls tools with its tokens.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FileOAuthClient } from '../src/index.js';

const serverUrl = process.argv[2] as string;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const dir = await mkdtemp(join(tmpdir(), 'nexus-conformance-'));

/** Plays the person at the browser: follows the authorization server's redirects until the loopback redirect URI has answered. */
async function approve(url: URL): Promise<void> {
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location || response.status < 300 || response.status >= 400) return;
    next = new URL(location, next);
  }
}

try {
  const oauth = new FileOAuthClient({
    serverUrl,
    file: join(dir, 'login.json'),
    ...(context.client_id ? { clientId: context.client_id } : {}),
    ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
  });
  await oauth.login(approve);
  const client = new Client({ name: 'nexus-conformance', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: oauth }));
  const { tools } = await client.listTools();
  for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
  await client.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
