import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startRoundRobinProxy, type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, type HttpNexus, nexusEnv, runNexus, startHttpNexus } from './testing/nexus-process-fixture.js';

let dir: TestDir;
const running: { stop(): Promise<unknown> }[] = [];

beforeAll(ensureBuilt, 180_000);

beforeEach(async () => {
  dir = await testdir({ project: {}, a: {}, b: {} });
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((each) => each.stop()));
  await dir.cleanup();
});

const confirmingEcho = { tools: { echo: { requiresConfirmation: true } } };

async function userConfig(configHome: string, config: object): Promise<void> {
  await writeTree(dir.join(configHome, 'nexus'), { 'nexus.config.json': JSON.stringify(config) });
}

async function start(configHome: string, env: Record<string, string>): Promise<HttpNexus> {
  const nexus = await startHttpNexus([], { cwd: dir.join('project'), env: nexusEnv(dir.join(configHome), env) });
  running.push(nexus);
  return nexus;
}

describe('nexus mcp --http without sticky sessions', () => {
  it('two processes sharing the state key (NEXUS_MCP_STATE_KEY, mcp.stateKey) behind a round-robin proxy serve one 2026-07-28 client, a confirmation retried on the other', async () => {
    const token = randomBytes(24).toString('base64url');
    const key = randomBytes(32).toString('base64url');
    await userConfig('a', confirmingEcho);
    await userConfig('b', { ...confirmingEcho, mcp: { stateKey: key } });
    const backends = [await start('a', { NEXUS_MCP_TOKEN: token, NEXUS_MCP_STATE_KEY: key }), await start('b', { NEXUS_MCP_TOKEN: token })];
    const proxy = await startRoundRobinProxy(backends.map((backend) => backend.port));
    running.push({ stop: () => proxy.close() });

    const client = new Client(
      { name: 'stateless-test', version: '1' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${proxy.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    running.push({ stop: () => client.close() });

    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    const before = proxy.hits.length;
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect((result.content as { text: string }[])[0]?.text).toBe('hi');
    expect(asked).toEqual([expect.stringContaining('Allow echo to run echo?')]);
    const [question, retry] = proxy.hits.slice(before);
    expect(retry).not.toBe(question);
  });

  it('takes the state key from neither a project file nor a short value', async () => {
    await writeTree(dir.join('project'), { 'nexus.config.json': JSON.stringify({ mcp: { stateKey: randomBytes(32).toString('hex') } }) });
    const fromProject = await runNexus(['mcp', '--http', '0'], {
      cwd: dir.join('project'),
      env: nexusEnv(dir.join('a')),
      exitWithinMs: 30_000,
    });
    expect(fromProject.code).not.toBe(0);
    expect(fromProject.stderr).toContain('mcp.stateKey');

    const short = await runNexus(['mcp', '--http', '0'], {
      cwd: dir.join('b'),
      env: nexusEnv(dir.join('a'), { NEXUS_MCP_STATE_KEY: 'too short' }),
      exitWithinMs: 30_000,
    });
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('NEXUS_MCP_STATE_KEY');
  });
});
