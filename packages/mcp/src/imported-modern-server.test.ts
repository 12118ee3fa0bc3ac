import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startService } from '@nexus/process';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ImportedMcpServer, importMcpServer, type McpServerConfig } from './index.js';
import { agentUsing } from './mcp-fixture.js';

const script = join(import.meta.dirname, '..', 'test', 'modern-mcp-server.mjs');
let dir: TestDir;
const cleanup: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = await testdir({});
});

afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
  await dir.cleanup();
});

async function importModern(name: string, config: McpServerConfig): Promise<ImportedMcpServer> {
  const server = await importMcpServer(name, config);
  cleanup.push(() => server.close());
  return server;
}

async function startHttpServer(): Promise<McpServerConfig> {
  const service = await startService(process.execPath, [script, '--http']);
  cleanup.push(() => service.stop());
  const [url] = await createInterface({ input: service.stdout })
    [Symbol.asyncIterator]()
    .next()
    .then(({ value }) => [value as string]);
  return { url: url as string };
}

describe.each([
  { transport: 'stdio', config: async (): Promise<McpServerConfig> => ({ command: process.execPath, args: [script] }) },
  { transport: 'Streamable HTTP', config: startHttpServer },
])('importMcpServer with a 2026-07-28-only server (v2 SDK) over $transport', ({ config }) => {
  it('lists and calls its tools, and hears that they changed', async () => {
    const server = await importModern('modern', await config());
    const agent = agentUsing(server, dir.path, 'yolo');
    expect((await agent.call('mcp__modern__shout', { text: 'hi' })).output).toBe('HI');
    expect(server.family.skills.map((skill) => skill.name)).not.toContain('mcp__modern__whisper');
    await agent.call('mcp__modern__grow', {});
    await expect
      .poll(async () => (await server.listTools()).map((tool) => tool.name), { timeout: 10_000 })
      .toContain('mcp__modern__whisper');
    expect((await agent.call('mcp__modern__whisper', { text: 'HI' })).output).toBe('hi');
  });
});

describe('importMcpServer with a 2025-era stdio server that ignores the revision question', () => {
  it('gives up asking after a few seconds and initializes', async () => {
    const server = await importModern('quiet', {
      command: process.execPath,
      args: [join(import.meta.dirname, '..', 'test', 'probe-ignoring-mcp-server.mjs')],
    });
    expect((await agentUsing(server, dir.path, 'yolo').call('mcp__quiet__ping', {})).output).toBe('pong');
  });
});
