import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AuditRecord } from '@nexus/registry';
import { type OidcStandIn, startOidcProvider, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type McpHttpServer, serveHttp } from './index.js';
import { createClient, createModernClient, createTestRegistry } from './mcp-fixture.js';

let dir: TestDir;
let idp: OidcStandIn;
let server: McpHttpServer;
let records: AuditRecord[];

beforeEach(async () => {
  dir = await testdir({});
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const audience = `http://127.0.0.1:${port}/mcp`;
  idp = await startOidcProvider({ audience, users: { alice: {} } });
  const { registry } = createTestRegistry(dir.path);
  records = [];
  registry.services.register('callHooks', { onAudit: (record) => records.push(record) });
  server = await serveHttp(registry, { port, auth: { issuer: idp.issuer, audience } });
});

afterEach(async () => {
  await server.close();
  await idp.close();
  await dir.cleanup();
});

const headers = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

describe('nexus mcp: audit records name the caller', () => {
  it("a 2025-era client's call names the client and the holder of the issuer's token", async () => {
    const client = createClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), headers(await idp.token('alice'))));
    try {
      await client.callTool({ name: 'count', arguments: {} });
    } finally {
      await client.close();
    }
    expect(records.map(({ tool, caller }) => ({ tool, caller }))).toEqual([
      { tool: 'count', caller: { tokenHolder: 'alice', mcpClient: 'nexus-test-client' } },
    ]);
  });

  it("a 2026-07-28 client's call with the static token names the client from the request", async () => {
    const client = createModernClient();
    await client.connect(new ModernTransport(new URL(server.url), headers(server.token)));
    try {
      await client.callTool({ name: 'count', arguments: {} });
    } finally {
      await client.close();
    }
    expect(records.map(({ tool, caller }) => ({ tool, caller }))).toEqual([
      { tool: 'count', caller: { mcpClient: 'nexus-modern-test-client' } },
    ]);
  });
});
