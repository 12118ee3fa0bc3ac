import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { parseAgentSettings, TOKEN_HOLDER } from '@nexus/agents';
import { ServiceContainer } from '@nexus/core';
import { processesWithArgument } from '@nexus/process/testing';
import { execSkills } from '@nexus/skills-exec';
import { fsSkills } from '@nexus/skills-fs';
import { waitUntil } from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../test/cluster-fixture.js';
import { startRestateRuntime } from './index.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(() => cluster?.close());

/** The stand-in model's answer: the last user message, echoed. */
function echoLastUserMessage(request: { body: { messages?: Array<{ role: string; content: unknown }> } }) {
  const last = (request.body.messages ?? []).filter((message) => message.role === 'user').at(-1);
  return { text: `echo: ${typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)}` };
}

describe('the restate runtime', () => {
  it("shares the agents between workers: 20 created through one are sent to through the other, each one's turns in order", async () => {
    const [first, second] = await cluster.startWorkers(2);
    if (!first || !second) throw new Error('two workers');
    cluster.llm.respondWith(echoLastUserMessage);
    const ids = Array.from({ length: 20 }, (_, index) => `shared-${index}`);

    for (const id of ids) expect(await first.result('/', 'create_agent', { agent_id: id })).toEqual({ agent_id: id, url: `/agent/${id}` });
    const answers = await Promise.all(
      ids.map(async (id) => [
        await second.result(`/agent/${id}`, 'send', { content: `one to ${id}`, request_id: 'r1' }),
        await second.result(`/agent/${id}`, 'send', { content: `two to ${id}`, request_id: 'r2' }),
      ]),
    );

    expect(answers[7]).toEqual([
      { content: 'echo: one to shared-7', request_id: 'r1', halted_at_iteration_limit: false },
      { content: 'echo: two to shared-7', request_id: 'r2', halted_at_iteration_limit: false },
    ]);
    const page = await first.result<{ messages: Array<{ role: string; content: string }> }>('/agent/shared-7', 'get_messages');
    expect(page.messages.map(({ role, content }) => `${role}: ${content}`)).toEqual([
      'user: one to shared-7',
      'assistant: echo: one to shared-7',
      'user: two to shared-7',
      'assistant: echo: two to shared-7',
    ]);
    const listed = await second.result<{ agents: Array<{ agent_id: string; message_count: number }> }>('/', 'list_agents');
    expect(listed.agents.filter((agent) => agent.agent_id.startsWith('shared-')).map((agent) => agent.message_count)).toEqual(
      ids.map(() => 4),
    );
  });

  it('keeps a turn paused for approval waiting in Restate; resolved through the other worker, it goes on and answers', async () => {
    const [first, second] = await cluster.startWorkers(2);
    if (!first || !second) throw new Error('two workers');
    const target = cluster.dir.join('outside.txt');
    await first.result('/', 'create_agent', { agent_id: 'careful', preset: 'trusted' });
    cluster.llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'approved' } }] }, { text: 'Written.' });
    const turn = { content: 'Write outside.', request_id: 'r1' };

    const paused = await first.result<{ approvals: Array<{ approval_id: string }> }>('/agent/careful', 'send', turn);

    expect(paused).toMatchObject({
      status: 'awaiting_approval',
      request_id: 'r1',
      approvals: [{ agent_id: 'careful', request_id: 'r1', tool: 'write_file', arguments: { path: target, content: 'approved' } }],
    });
    expect(await second.result('/', 'list_approvals')).toEqual({ approvals: paused.approvals });
    expect(await second.error('/agent/careful', 'compact')).toEqual({
      code: -32602,
      message: 'Agent "careful" has a turn (r1) waiting for approval; compact once it is decided or cancelled.',
    });
    const approvalId = paused.approvals[0]?.approval_id;
    expect(await second.result('/agent/careful', 'resolve_approval', { approval_id: approvalId, decision: 'approve' })).toEqual({
      resolved: true,
      request_id: 'r1',
      status: 'approved',
    });
    expect(await second.result('/agent/careful', 'send', turn)).toEqual({
      content: 'Written.',
      request_id: 'r1',
      halted_at_iteration_limit: false,
    });
    expect(await readFile(target, 'utf8')).toBe('approved');
    // An ended turn's answer, even when not waiting at all (the console asks so after a stream it could not resume).
    expect(await first.result('/agent/careful', 'wait_for', { request_id: 'r1', timeout_ms: 0 })).toEqual({
      content: 'Written.',
      request_id: 'r1',
      halted_at_iteration_limit: false,
    });
    expect(await first.result('/agent/careful', 'list_approvals')).toEqual({ approvals: [] });
  });

  it('cancels a turn waiting on an approval and one queued behind it, through the other worker; wait_for tells where a turn stands', async () => {
    const [first, second] = await cluster.startWorkers(2);
    if (!first || !second) throw new Error('two workers');
    await first.result('/', 'create_agent', { agent_id: 'stopped', preset: 'trusted' });
    cluster.llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: cluster.dir.join('never.txt'), content: 'no' } }] });
    const paused = await first.result('/agent/stopped', 'send', { content: 'Write outside.', request_id: 'r1' });
    const queued = first.result('/agent/stopped', 'send', { content: 'Then this.', request_id: 'r2' });

    expect(await second.result('/agent/stopped', 'wait_for', { request_id: 'r1', timeout_ms: 0 })).toEqual(paused);
    await waitUntil(
      async () => (await second.result('/agent/stopped', 'cancel', { request_id: 'r2' })).cancelled === true,
      'the queued turn to be cancelled',
    );
    expect(await queued).toEqual({ cancelled: true, request_id: 'r2' });
    expect(await second.result('/agent/stopped', 'wait_for', { request_id: 'r2', timeout_ms: 0 })).toEqual({
      cancelled: true,
      request_id: 'r2',
    });
    expect(await second.result('/agent/stopped', 'cancel', { request_id: 'r1' })).toEqual({ cancelled: true, request_id: 'r1' });
    expect(await first.result('/agent/stopped', 'wait_for', { request_id: 'r1' })).toEqual({ cancelled: true, request_id: 'r1' });
    expect(await first.result('/agent/stopped', 'list_approvals')).toEqual({ approvals: [] });
    expect(await second.result('/agent/stopped', 'cancel', { request_id: 'r1' })).toEqual({
      cancelled: false,
      request_id: 'r1',
      reason: 'not_found_or_completed',
    });
    await expect(readFile(cluster.dir.join('never.txt'), 'utf8')).rejects.toThrow();
  });

  it('cancels a running tool call through a front end that does not run the turn: its process is killed, the turn answers cancelled, the next one runs', async () => {
    // The turns run on the worker started last (its proxy is the deployment): `front` only takes calls.
    const [front] = await cluster.startWorkers(1);
    const [runner] = await cluster.startWorkers(1, { families: [fsSkills, execSkills] });
    if (!front || !runner) throw new Error('two workers');
    await runner.result('/', 'create_agent', { agent_id: 'sleeper', preset: 'trusted' });
    const seconds = `600.${process.pid}`;
    cluster.llm.script(
      { toolCalls: [{ name: 'bash_safe', arguments: { command: `sleep ${seconds}`, timeout: 300 } }] },
      { text: 'Awake.' },
    );
    const turn = runner.result('/agent/sleeper', 'send', { content: 'Sleep.', request_id: 'r1', confirm: 'allow' });
    await waitUntil(() => processesWithArgument(seconds).length > 0, 'the tool process to run');

    expect(await front.result('/agent/sleeper', 'cancel', { request_id: 'r1' })).toEqual({ cancelled: true, request_id: 'r1' });

    expect(await turn).toEqual({ cancelled: true, request_id: 'r1' });
    await waitUntil(() => processesWithArgument(seconds).length === 0, 'the tool process to be killed');
    expect(await front.result('/agent/sleeper', 'send', { content: 'Again.', request_id: 'r2' })).toEqual({
      content: 'Awake.',
      request_id: 'r2',
      halted_at_iteration_limit: false,
    });
    const fed = cluster.llm.requests.at(-1)?.body.messages as Array<{ role: string; content: unknown }>;
    expect(fed.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'Error (cancelled): cancelled by the user',
    ]);
  });

  it('cancels a running model stream through a front end that does not run the turn; the next turn runs', async () => {
    const [front] = await cluster.startWorkers(1);
    const [runner] = await cluster.startWorkers(1);
    if (!front || !runner) throw new Error('two workers');
    await runner.result('/', 'create_agent', { agent_id: 'talker' });
    const asked = cluster.llm.requests.length;
    cluster.llm.script({ text: 'This answer never finishes.', stall: true }, { text: 'Fresh start.' });
    const turn = runner.result('/agent/talker', 'send', { content: 'Talk.', request_id: 'r1' });
    await waitUntil(() => cluster.llm.requests.length > asked, 'the model stream to start');

    expect(await front.result('/agent/talker', 'cancel', { request_id: 'r1' })).toEqual({ cancelled: true, request_id: 'r1' });

    expect(await turn).toEqual({ cancelled: true, request_id: 'r1' });
    expect(await front.result('/agent/talker', 'send', { content: 'Again.', request_id: 'r2' })).toMatchObject({ content: 'Fresh start.' });
  });

  it('cancels the turn of a streaming client that goes away, here one queued behind a paused turn', async () => {
    const [worker] = await cluster.startWorkers(1);
    if (!worker) throw new Error('a worker');
    await worker.result('/', 'create_agent', { agent_id: 'left', preset: 'trusted' });
    cluster.llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: cluster.dir.join('left.txt'), content: 'no' } }] });
    await worker.result('/agent/left', 'send', { content: 'Write outside.', request_id: 'r1' });
    const client = new AbortController();
    const streaming = fetch(`${worker.server.url}/agent/left`, {
      method: 'POST',
      headers: { authorization: `Bearer ${worker.server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'send', params: { content: 'Then this.', request_id: 'r2', stream: true } }),
      signal: client.signal,
    });
    await waitUntil(
      () =>
        worker.result('/agent/left', 'wait_for', { request_id: 'r2', timeout_ms: 0 }).then(
          (answer) => answer.status === 'running',
          () => false,
        ),
      'the streamed turn to be queued',
    );

    client.abort();
    await streaming.catch(() => {});

    const statusOfR2 = `SELECT status FROM sys_invocation WHERE target_service_key = 'left' AND starts_with(idempotency_key, 'r2:')`;
    // Cancelled before it ran, the invocation is gone (one that ran would be completed).
    await waitUntil(
      async () => (await cluster.restate.query<{ status: string }>(statusOfR2)).every((row) => row.status === 'completed'),
      'the streamed turn to end',
    );
    expect(await worker.result('/agent/left', 'list_approvals')).toMatchObject({ approvals: [{ request_id: 'r1' }] });
  });

  it("keeps §5's rules for an agent's own calls: its children are below it, a sandboxed agent creates nothing and may not shut the server down", async () => {
    const [worker] = await cluster.startWorkers(1);
    if (!worker) throw new Error('a worker');
    await worker.result('/', 'create_agent', { agent_id: 'lead', preset: 'trusted' });
    const lead = worker.runtime.connectionFor('lead');

    expect(await lead.call('create_agent', { agent_id: 'helper' })).toEqual({ agent_id: 'helper', url: '/agent/helper' });
    const listed = await worker.result<{ agents: Array<{ agent_id: string; parent_agent_id: string | null; permission_level: string }> }>(
      '/',
      'list_agents',
    );
    expect(listed.agents.find((agent) => agent.agent_id === 'helper')).toMatchObject({
      parent_agent_id: 'lead',
      permission_level: 'sandboxed',
    });
    const helper = worker.runtime.connectionFor('helper');
    await expect(helper.call('create_agent', { agent_id: 'grandchild' })).rejects.toThrow(/sandboxed/);
    await expect(helper.call('shutdown_server', {})).rejects.toThrow(/sandboxed agent may not shut the server down/);
    await expect(lead.call('create_agent', { agent_id: 'other', parent_agent_id: 'helper' })).rejects.toThrow(/only its own children/);
  });

  it("audits an agent's tool calls as the agent's, with its parent as its ancestry", async () => {
    const records: Array<{ tool: string; caller?: unknown }> = [];
    const [worker] = await cluster.startWorkers(1, {
      services: () =>
        new ServiceContainer().register('callHooks', { onAudit: (record: { tool: string; caller?: unknown }) => records.push(record) }),
    });
    if (!worker) throw new Error('a worker');
    await writeFile(cluster.dir.join('work', 'notes.md'), 'hello');
    await worker.result('/', 'create_agent', { agent_id: 'boss', preset: 'trusted' });
    await worker.runtime.connectionFor('boss').call('create_agent', { agent_id: 'aide' });
    cluster.llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }, { text: 'Read.' });

    await worker.result('/agent/aide', 'send', { content: 'Read the notes.' });

    expect(records.map(({ tool, caller }) => ({ tool, caller }))).toEqual([
      { tool: 'read_file', caller: { agentId: 'aide', ancestry: ['boss'] } },
    ]);
  });

  it('refuses an agent whose working directory this worker cannot see, saying so', async () => {
    const [worker] = await cluster.startWorkers(1);
    if (!worker) throw new Error('a worker');
    await mkdir(cluster.dir.join('work', 'gone'));
    await worker.result('/', 'create_agent', { agent_id: 'elsewhere', cwd: 'gone' });
    await rm(cluster.dir.join('work', 'gone'), { recursive: true });

    expect(await worker.error('/agent/elsewhere', 'get_context')).toEqual({
      code: -32602,
      message: expect.stringMatching(/cannot see agent "elsewhere"'s working directory .*gone; put it on storage every worker shares/),
    });
  });

  it('refuses to serve Restate beyond loopback unless requests must be signed by the cluster (its identity keys)', async () => {
    const options = { settings: parseAgentSettings({ providers: {}, models: {} }), families: [], cwd: cluster.dir.join('work') };
    const urls = { ingress: cluster.restate.ingress, admin: cluster.restate.admin };

    await expect(startRestateRuntime({ ...options, ...urls, endpointHost: '0.0.0.0', endpointPort: 0 })).rejects.toThrow(
      /0\.0\.0\.0 is not loopback: give the Restate cluster's request identity keys/,
    );
  });

  it("keeps the answers of an agent's last 100 turns, not more (its state does not grow without bound)", async () => {
    const [worker] = await cluster.startWorkers(1);
    if (!worker) throw new Error('a worker');
    await worker.result('/', 'create_agent', { agent_id: 'chatty' });
    cluster.llm.respondWith(echoLastUserMessage);
    for (let turn = 0; turn < 101; turn++)
      await worker.runtime.call('send', { content: `turn ${turn}`, request_id: `r${turn}` }, TOKEN_HOLDER, 'chatty');

    const rows = await cluster.restate.query<{ key: string }>(
      `SELECT key FROM state WHERE service_name = 'NexusAgent' AND service_key = 'chatty' AND key LIKE 'ended:%'`,
    );
    expect(rows).toHaveLength(100);
    expect(rows.map((row) => row.key)).not.toContain('ended:r0');
  });

  it('compacts an agent: its stored conversation is the compacted one, for every worker', async () => {
    const [first, second] = await cluster.startWorkers(2);
    if (!first || !second) throw new Error('two workers');
    await first.result('/', 'create_agent', { agent_id: 'long' });
    cluster.llm.script({ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'summary of it all' });
    for (const content of ['a', 'b', 'c']) await first.result('/agent/long', 'send', { content });

    expect(await second.result('/agent/long', 'compact', { force: true })).toMatchObject({ compacted: true });

    const page = await first.result<{ messages: Array<{ content: string }> }>('/agent/long', 'get_messages');
    expect(page.messages[0]?.content).toContain('summary of it all');
    expect(page.messages.map((message) => message.content)).not.toContain('a');
  });

  it('watch streams the changes of the agents, turns and approvals asked through this worker, wherever the turns run; a refused send is no turn', async () => {
    const [first, second] = await cluster.startWorkers(2);
    if (!first || !second) throw new Error('two workers');
    const response = await fetch(`${first.server.url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'watch' }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    const names = () => [...received.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
    const readUntil = async (name: string, count = 1) => {
      while (names().filter((each) => each === name).length < count) received += (await reader.read()).value ?? '';
    };
    await readUntil('ready');
    cluster.llm.script({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { text: 'Listed.' }, { text: 'Again.' });

    await first.result('/', 'create_agent', { agent_id: 'watched', preset: 'trusted' });
    await first.result('/agent/watched', 'send', { content: 'List.', request_id: 'r1' });
    await first.error('/agent/watched', 'send', { content: 'Other content.', request_id: 'r1' });
    await first.result('/agent/watched', 'send', { content: 'Again.', request_id: 'r2' });
    await readUntil('turn_ended', 2);
    await reader.cancel();

    expect(names().filter((name) => name !== 'text' && name !== 'usage')).toEqual([
      'ready',
      'agent_created',
      'turn_started',
      'tool_call',
      'tool_result',
      'turn_ended',
      'turn_started',
      'turn_ended',
    ]);
    expect(received).toContain('"agent_id":"watched","request_id":"r1","reply":{"content":"Listed."');
  });

  it('streams a turn to the client through the front end holding its stream, wherever the turn runs', async () => {
    const [first, second] = await cluster.startWorkers(2);
    if (!first || !second) throw new Error('two workers');
    await first.result('/', 'create_agent', { agent_id: 'streamer', preset: 'trusted' });
    cluster.llm.script({ text: 'Listing.', toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { text: 'Listed.' });

    const response = await fetch(`${second.server.url}/agent/streamer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${second.server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'send', params: { content: 'List.', request_id: 'r1', stream: true } }),
    });
    const events = (await response.text()).split('\n\n').flatMap((block) => /^event: (\S+)$/m.exec(block)?.[1] ?? []);

    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(events.filter((name) => name !== 'text')).toEqual(['tool_call', 'tool_result', 'result']);
    expect(events).toContain('text');
  });
});
