import { type Requester, TOKEN_HOLDER } from '@nexus/agents';
import { ServiceContainer } from '@nexus/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../test/cluster-fixture.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(() => cluster?.close());

const alice: Requester = { kind: 'user', subject: 'alice', admin: false };
const bob: Requester = { kind: 'user', subject: 'bob', admin: false };
const carol: Requester = { kind: 'user', subject: 'carol', admin: true };

describe('owners on the restate runtime', () => {
  it("keeps a person's agent from another person through every worker; an admin, the token holder and its owner through the other worker reach it", async () => {
    const callers: unknown[] = [];
    const [first, second] = await cluster.startWorkers(2, {
      services: () =>
        new ServiceContainer().register('callHooks', { onAudit: (record: { caller?: unknown }) => callers.push(record.caller) }),
    });
    if (!first || !second) throw new Error('two workers');
    const ids = async (requester: Requester) =>
      ((await second.runtime.call('list_agents', {}, requester)) as { agents: Array<{ agent_id: string }> }).agents.map(
        (agent) => agent.agent_id,
      );
    await first.runtime.call('create_agent', { agent_id: 'alices', preset: 'trusted' }, alice);
    await first.runtime.call('create_agent', { agent_id: 'bobs' }, bob);
    cluster.llm.script(
      { toolCalls: [{ name: 'write_file', arguments: { path: cluster.dir.join('alice.txt'), content: 'hers' } }] },
      { text: 'Written.' },
    );
    const paused = (await first.runtime.call('send', { content: 'Write outside.', request_id: 'r1' }, alice, 'alices')) as {
      approvals: Array<{ approval_id: string }>;
    };
    const approval_id = paused.approvals[0]?.approval_id;
    // What a person's watch goes by for an agent created after it started (ownAgentsOnly).
    expect([first.runtime.ownerOf('alices'), first.runtime.ownerOf('bobs')]).toEqual(['alice', 'bob']);

    expect(await ids(bob)).toEqual(['bobs']);
    expect(await second.runtime.call('list_approvals', {}, bob)).toEqual({ approvals: [] });
    for (const [method, params, agentId] of [
      ['get_context', {}, 'alices'],
      ['get_tokens', {}, 'alices'],
      ['get_messages', {}, 'alices'],
      ['send', { content: 'hello' }, 'alices'],
      ['list_approvals', {}, 'alices'],
      ['resolve_approval', { approval_id, decision: 'approve' }, 'alices'],
      ['cancel', { request_id: 'r1' }, 'alices'],
      ['wait_for', { request_id: 'r1', timeout_ms: 0 }, 'alices'],
      ['compact', {}, 'alices'],
      ['shutdown', {}, 'alices'],
      ['destroy_agent', { agent_id: 'alices' }, undefined],
      ['create_agent', { agent_id: 'b2', parent_agent_id: 'alices' }, undefined],
      ['shutdown_server', {}, undefined],
    ] as const) {
      await expect(second.runtime.call(method, params, bob, agentId), `${method} by bob`).rejects.toThrow(/is not yours|is for admins/);
    }
    expect(await ids(carol)).toEqual(['alices', 'bobs']);
    expect(await ids(TOKEN_HOLDER)).toEqual(['alices', 'bobs']);
    expect(await second.runtime.call('get_context', {}, carol, 'alices')).toHaveProperty('max_tool_iterations');
    expect(await second.runtime.call('list_approvals', {}, TOKEN_HOLDER, 'alices')).toEqual({ approvals: paused.approvals });

    expect(await ids(alice)).toEqual(['alices']);
    expect(await second.runtime.call('list_approvals', {}, alice)).toEqual({ approvals: paused.approvals });
    expect(await second.runtime.call('resolve_approval', { approval_id, decision: 'approve' }, alice, 'alices')).toMatchObject({
      status: 'approved',
    });
    expect(await second.runtime.call('wait_for', { request_id: 'r1' }, alice, 'alices')).toMatchObject({ content: 'Written.' });
    // The paused call and the approved one: each on alice's behalf.
    expect(callers).toEqual([1, 2].map(() => ({ tokenHolder: 'alice', agentId: 'alices', ancestry: [] })));
    await expect(second.runtime.connectionFor('alices').call('get_context', {}, 'bobs')).rejects.toThrow(/"bobs" is not yours \(alice\)/);
    expect(await second.runtime.call('destroy_agent', { agent_id: 'alices' }, alice)).toEqual({ success: true, agent_id: 'alices' });
  });
});
