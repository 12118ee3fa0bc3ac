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
let ports: number[];
const workers: ServingNexus[] = [];

/** Worker `index` on its endpoint port, its model key `worker-<index>` (to tell who asked the model). */
function startWorker(index: number): Promise<ServingNexus> {
  const args = ['--runtime', 'restate', '--restate', restate.ingress, '--restate-admin', restate.admin];
  return startNexusServe([...args, '--restate-port', String(ports[index]), '--restate-deployment', proxy.origin], {
    cwd: dir.join('project'),
    env: nexusEnv(dir.join('config'), { XDG_STATE_HOME: dir.join('state'), [KEY_VARIABLE]: `worker-${index}` }),
  });
}

/** Two `nexus serve --runtime restate` workers behind one round-robin proxy, the deployment Restate calls; each its own model key, to tell who asked the model. */
beforeAll(async () => {
  dir = await testdir({ project: {}, config: {}, state: {}, restate: {} });
  llm = await startLlmStandIn();
  restate = await startRestateServer(dir.join('restate'));
  await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(standInModelConfig(llm.url, KEY_VARIABLE)) });
  ports = [await freePort(), await freePort()];
  proxy = await startRoundRobinProxy(ports);
  for (const index of ports.keys()) workers.push(await startWorker(index));
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

  it('goes on with a turn whose worker was killed during a tool call on the other, without repeating its finished tool call', async () => {
    // An earlier test killed a worker: a new one takes its place.
    for (const [index, worker] of workers.entries())
      if (worker.child.exitCode !== null || worker.child.signalCode !== null) workers[index] = await startWorker(index);
    const [first, second] = workers as [ServingNexus, ServingNexus];
    await rpc(first, '/', 'create_agent', { agent_id: 'b', preset: 'trusted' });
    llm.script(
      { toolCalls: [{ name: 'append_file', arguments: { path: 'tool-log.txt', content: 'once\n' } }] },
      { toolCalls: [{ name: 'bash_safe', arguments: { command: "sh -c 'echo started >> started.txt; sleep 2'" } }] },
      { text: 'Done.' },
    );
    const turn = { content: 'Append, then wait.', request_id: 'r1', confirm: 'allow' };
    const before = llm.requests.length;

    const sent = rpc(first, '/agent/b', 'send', turn).catch(() => undefined);
    const started = () =>
      readFile(dir.join('project', 'started.txt'), 'utf8').then(
        () => true,
        () => false,
      );
    await waitUntil(started, 'the slow tool call to start');
    const running = llm.requests[before + 1]?.headers.authorization === 'Bearer worker-0' ? first : second;
    await running.stop('SIGKILL');
    const survivor = running === first ? second : first;
    const answer = (await sent)?.result ?? (await rpc(survivor, '/agent/b', 'send', turn)).result;

    expect(answer).toEqual({ content: 'Done.', request_id: 'r1', halted_at_iteration_limit: false });
    expect(await readFile(dir.join('project', 'tool-log.txt'), 'utf8')).toBe('once\n');
    expect(llm.requests.length - before).toBe(3);
  });
});
