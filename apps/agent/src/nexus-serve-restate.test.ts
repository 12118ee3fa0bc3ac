import { readFile } from 'node:fs/promises';
import { freePort, type RestateServer, startRestateServer } from '@nexus/agents-restate/testing';
import {
  type LlmStandIn,
  type RoundRobinProxy,
  startLlmStandIn,
  startRoundRobinProxy,
  type TestDir,
  testdir,
  waitUntil,
  writeTree,
} from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, nexusEnv, type ServingNexus, standInModelConfig, startNexusServe } from './testing/nexus-process-fixture.js';

beforeAll(ensureBuilt, 180_000);

const KEY_VARIABLE = 'NEXUS_TEST_LLM_KEY';

let dir: TestDir;
let llm: LlmStandIn;
let restate: RestateServer;
let proxy: RoundRobinProxy;
const workers: ServingNexus[] = [];

/** Two `nexus serve --runtime restate` workers behind one round-robin proxy, the deployment Restate calls; each its own model key, to tell who asked the model. */
beforeAll(async () => {
  dir = await testdir({ project: {}, config: {}, state: {}, restate: {} });
  llm = await startLlmStandIn();
  restate = await startRestateServer(dir.join('restate'));
  await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(standInModelConfig(llm.url, KEY_VARIABLE)) });
  const ports = [await freePort(), await freePort()];
  proxy = await startRoundRobinProxy(ports);
  for (const [index, port] of ports.entries()) {
    const args = ['--runtime', 'restate', '--restate', restate.ingress, '--restate-admin', restate.admin];
    const worker = await startNexusServe([...args, '--restate-port', String(port), '--restate-deployment', proxy.origin], {
      cwd: dir.join('project'),
      env: nexusEnv(dir.join('config'), { XDG_STATE_HOME: dir.join('state'), [KEY_VARIABLE]: `worker-${index}` }),
    });
    workers.push(worker);
  }
}, 120_000);

afterAll(async () => {
  for (const worker of workers) if (worker.child.exitCode === null) await worker.stop('SIGKILL');
  await proxy?.close();
  await restate?.close();
  await llm?.close();
  await dir?.cleanup();
});

async function rpc(worker: ServingNexus, path: string, method: string, params: object = {}) {
  const token = (await readFile(dir.join('state', 'nexus', `rpc-${worker.port}.token`), 'utf8')).trim();
  const response = await fetch(`${worker.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
}

describe('nexus serve --runtime restate', () => {
  it('goes on with a turn whose worker was killed mid-stream on the other, without repeating its finished tool call; a killed Restate server loses nothing', async () => {
    const [first, second] = workers as [ServingNexus, ServingNexus];
    expect((await rpc(first, '/', 'create_agent', { agent_id: 'a', preset: 'trusted' })).result).toEqual({
      agent_id: 'a',
      url: '/agent/a',
    });
    llm.script(
      { toolCalls: [{ name: 'append_file', arguments: { path: 'log.txt', content: 'once\n' } }] },
      { text: 'never finished', stall: true },
      { text: 'Appended once.' },
    );
    const turn = { content: 'Append once.', request_id: 'r1' };

    const sent = rpc(first, '/agent/a', 'send', turn).catch(() => undefined);
    await waitUntil(() => llm.requests.length === 2, 'the second model step to start streaming');
    const streaming = llm.requests[1]?.headers.authorization === 'Bearer worker-0' ? first : second;
    await streaming.stop('SIGKILL');
    const survivor = streaming === first ? second : first;
    // A client whose worker died sends again with the same request id: Restate attaches it to the turn.
    const answer = (await sent)?.result ?? (await rpc(survivor, '/agent/a', 'send', turn)).result;

    expect(answer).toEqual({ content: 'Appended once.', request_id: 'r1', halted_at_iteration_limit: false });
    expect(await readFile(dir.join('project', 'log.txt'), 'utf8')).toBe('once\n');
    expect(llm.requests).toHaveLength(3);

    await restate.kill();
    await restate.restart();
    const page = (await rpc(survivor, '/agent/a', 'get_messages')).result as { total: number };
    expect(page.total).toBe(4);
    expect((await rpc(survivor, '/agent/a', 'send', turn)).result).toEqual(answer);
  });

  it('keeps a pending approval across a killed and restarted Restate server; resolved, the turn goes on', async () => {
    const survivor = workers.find((worker) => worker.child.exitCode === null && worker.child.signalCode === null) as ServingNexus;
    const target = dir.join('outside.txt');
    await rpc(survivor, '/', 'create_agent', { agent_id: 'careful', preset: 'trusted' });
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'approved' } }] }, { text: 'Written.' });
    const turn = { content: 'Write outside.', request_id: 'r1' };
    const paused = (await rpc(survivor, '/agent/careful', 'send', turn)).result as { approvals: Array<{ approval_id: string }> };

    await restate.kill();
    await restate.restart();

    // Until the restarted cluster has taken its partitions up again a request may fail, as with any server starting.
    await waitUntil(async () => (await rpc(survivor, '/', 'list_approvals')).result !== undefined, 'Restate to answer after its restart');
    expect((await rpc(survivor, '/', 'list_approvals')).result).toEqual({ approvals: paused.approvals });
    const approval_id = paused.approvals[0]?.approval_id;
    expect((await rpc(survivor, '/agent/careful', 'resolve_approval', { approval_id, decision: 'approve' })).result).toMatchObject({
      status: 'approved',
    });
    expect((await rpc(survivor, '/agent/careful', 'send', turn)).result).toEqual({
      content: 'Written.',
      request_id: 'r1',
      halted_at_iteration_limit: false,
    });
    expect(await readFile(target, 'utf8')).toBe('approved');
  });
});
