import { readFile } from 'node:fs/promises';
import { type LlmStandIn, startLlmStandIn, type TestDir, testdir, waitUntil, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, nexusEnv, type ServingNexus, standInModelConfig, startNexusServe } from './testing/nexus-process.js';

beforeAll(ensureBuilt, 180_000);

let dir: TestDir;
let llm: LlmStandIn;
const servers: ServingNexus[] = [];

beforeEach(async () => {
  dir = await testdir({ project: {}, config: {}, state: {} });
  llm = await startLlmStandIn();
  await writeTree(dir.join('config', 'nexus'), {
    'nexus.config.json': JSON.stringify(standInModelConfig(llm.url)),
  });
});

afterEach(async () => {
  for (const server of servers.splice(0)) if (server.child.exitCode === null) await server.stop('SIGKILL');
  await llm.close();
  await dir.cleanup();
});

/** Starts `nexus serve --port 0` in the project, with the test's config and state directories. */
async function startServer(): Promise<ServingNexus> {
  const server = await startNexusServe([], {
    cwd: dir.join('project'),
    env: nexusEnv(dir.join('config'), { XDG_STATE_HOME: dir.join('state') }),
  });
  servers.push(server);
  return server;
}

async function rpc(server: { url: string; port: number }, path: string, method: string, params: object = {}) {
  const token = (await readFile(dir.join('state', 'nexus', `rpc-${server.port}.token`), 'utf8')).trim();
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
}

describe('nexus serve', () => {
  it('killed with SIGKILL mid-turn, then started again, has lost nothing that was answered', async () => {
    const first = await startServer();
    expect((await rpc(first, '/', 'create_agent', { agent_id: 'keeper' })).result).toEqual({ agent_id: 'keeper', url: '/agent/keeper' });
    llm.script({ text: 'Noted: 42.' }, { text: 'this turn never ends', stall: true });
    expect((await rpc(first, '/agent/keeper', 'send', { content: 'My number is 42.' })).result).toMatchObject({ content: 'Noted: 42.' });
    void rpc(first, '/agent/keeper', 'send', { content: 'And now?' }).catch(() => undefined);
    await waitUntil(() => llm.requests.length === 2, 'the second turn to reach the model');
    await first.stop('SIGKILL');

    const second = await startServer();
    const { result } = await rpc(second, '/agent/keeper', 'get_messages');

    expect(result?.total).toBe(2);
    expect(result?.messages).toEqual([
      { index: 0, role: 'user', content: 'My number is 42.' },
      { index: 1, role: 'assistant', content: 'Noted: 42.' },
    ]);
  });

  it('stops on shutdown_server and removes its token file', async () => {
    const server = await startServer();

    expect((await rpc(server, '/', 'shutdown_server')).result).toMatchObject({ success: true });

    expect(await server.exited).toBe(0);
    await expect(readFile(dir.join('state', 'nexus', `rpc-${server.port}.token`))).rejects.toThrow(/ENOENT/);
  });
});
