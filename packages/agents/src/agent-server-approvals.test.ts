import { readFile } from 'node:fs/promises';
import { waitUntil } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_KEY } from '../test/agent-fixture.js';
import { runtimeName, startTestServer, type TestServer } from '../test/server-fixture.js';
import { AgentPool, TOKEN_HOLDER } from './index.js';

let fixture: TestServer | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

interface WireApproval {
  approval_id: string;
  agent_id: string;
  request_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  question: string;
}
interface Paused {
  status: string;
  request_id: string;
  approvals: WireApproval[];
}

/** A server with trusted agent `t` whose first turn pauses at a write outside its directory. */
async function pausedAgent(options: { agentId?: string; parent?: string } = {}) {
  fixture ??= await startTestServer();
  const { llm, result, dir } = fixture;
  const agentId = options.agentId ?? 't';
  const target = dir.join(`${agentId}-outside.txt`);
  await result('/', 'create_agent', { agent_id: agentId, preset: options.parent ? 'sandboxed' : 'trusted' });
  llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'approved' } }] }, { text: 'Done.' });
  const paused = await result<Paused>(`/agent/${agentId}`, 'send', { content: 'write outside', request_id: 'r1' });
  return { ...fixture, target, paused, approvalId: paused.approvals[0]?.approval_id ?? '' };
}

describe('approvals on the agent server (specs/agent-server.md §8)', () => {
  it('send answers awaiting_approval; list, approve, and wait_for gives the turn its result', async () => {
    const { result, target, paused, approvalId, rpc } = await pausedAgent();

    expect(paused).toEqual({
      status: 'awaiting_approval',
      request_id: 'r1',
      approvals: [
        {
          approval_id: expect.any(String),
          agent_id: 't',
          request_id: 'r1',
          tool: 'write_file',
          arguments: { path: target, content: 'approved' },
          question: expect.stringContaining(target),
          created_at: expect.any(String),
          policy_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ],
    });
    expect(await result('/agent/t', 'list_approvals', {})).toEqual({ approvals: paused.approvals });
    expect(await result('/', 'list_approvals', {})).toEqual({ approvals: paused.approvals });
    expect(await result('/', 'list_approvals', { agent_id: 'other' })).toEqual({ approvals: [] });
    expect(await result('/agent/t', 'wait_for', { request_id: 'r1', timeout_ms: 0 })).toEqual(paused);

    expect(await result('/agent/t', 'resolve_approval', { approval_id: approvalId, decision: 'approve' })).toEqual({
      resolved: true,
      request_id: 'r1',
      status: 'approved',
    });
    const done = { content: 'Done.', request_id: 'r1', halted_at_iteration_limit: false };
    expect(await result('/agent/t', 'wait_for', { request_id: 'r1' })).toEqual(done);
    expect(await readFile(target, 'utf8')).toBe('approved');
    // A repeated send of the same turn is a retry: it answers the turn, it does not run it again.
    expect(await result('/agent/t', 'send', { content: 'write outside', request_id: 'r1' })).toEqual(done);
    expect((await rpc('/agent/t', 'send', { content: 'something else', request_id: 'r1' })).body.error?.message).toMatch(/other content/);
    const again = await rpc('/agent/t', 'resolve_approval', { approval_id: approvalId, decision: 'approve' });
    expect(again.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/no pending approval/) });
    expect(await result('/agent/t', 'list_approvals', {})).toEqual({ approvals: [] });
  });

  it('a denial reaches the model with who denied it and why; a send while paused waits behind the turn', async () => {
    const { result, llm, approvalId, target } = await pausedAgent();
    llm.script({ text: 'second turn' });
    let secondDone = false;
    const second = result('/agent/t', 'send', { content: 'and then' }).then((answer) => {
      secondDone = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(secondDone).toBe(false);

    expect(await result('/agent/t', 'resolve_approval', { approval_id: approvalId, decision: 'deny', note: 'wrong folder' })).toMatchObject(
      {
        status: 'denied',
      },
    );

    expect(await second).toMatchObject({ content: 'second turn' });
    const fed = JSON.stringify(llm.requests[1]?.body.messages);
    expect(fed).toContain('Error (forbidden): denied by token holder: wrong folder');
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('a streamed send says approval_required, then the same result', async () => {
    fixture = await startTestServer();
    const { llm, result, streamed, dir } = fixture;
    await result('/', 'create_agent', { agent_id: 's', preset: 'trusted' });
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: dir.join('x.txt'), content: 'x' } }] });

    const { events } = await streamed('/agent/s', { content: 'go', request_id: 'q' });

    expect(events.map((event) => event.name)).toEqual(['tool_call', 'approval_required', 'result']);
    expect(events[2]?.data).toEqual({ status: 'awaiting_approval', request_id: 'q', approvals: [events[1]?.data] });
    // The turn outlives the stream that reported its pause.
    expect(await result('/agent/s', 'list_approvals', {})).toEqual({ approvals: [events[1]?.data] });
  });

  it('a restarted server lists the approval from the session, and approving it completes the turn', async () => {
    const { target, approvalId, paused, runtime, restart } = await pausedAgent();
    await runtime.close();
    const restarted = await restart();

    expect(await restarted.call('list_approvals', {}, TOKEN_HOLDER)).toEqual({ approvals: paused.approvals });
    // The local runtime lists them from the sessions without restoring the agent.
    if (restarted instanceof AgentPool) expect(restarted.ids).toEqual([]);
    expect(await restarted.call('resolve_approval', { approval_id: approvalId, decision: 'approve' }, TOKEN_HOLDER, 't')).toMatchObject({
      status: 'approved',
    });
    expect(await restarted.call('wait_for', { request_id: 'r1' }, TOKEN_HOLDER, 't')).toMatchObject({ content: 'Done.' });
    expect(await readFile(target, 'utf8')).toBe('approved');
  });

  it('after a restart under another policy the approval is stale: not run, and the model is told why', async () => {
    const { target, approvalId, runtime, restart, llm, dir } = await pausedAgent();
    await runtime.close();
    const restarted = await restart({ blockedPaths: [dir.join('work', 'secrets')] });

    expect(await restarted.call('resolve_approval', { approval_id: approvalId, decision: 'approve' }, TOKEN_HOLDER, 't')).toMatchObject({
      status: 'stale',
    });
    expect(await restarted.call('wait_for', { request_id: 'r1' }, TOKEN_HOLDER, 't')).toMatchObject({ content: 'Done.' });
    expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain("stale: the agent's policy changed since it was asked");
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('cancelling a paused turn ends it and its approval disappears; compact is refused while it waits', async () => {
    const { result, rpc } = await pausedAgent();
    expect((await rpc('/agent/t', 'compact', {})).body.error?.message).toMatch(
      /waiting for approval; compact once it is decided or cancelled/,
    );
    expect(await result('/agent/t', 'cancel', { request_id: 'r1' })).toEqual({ cancelled: true, request_id: 'r1' });
    expect(await result('/agent/t', 'wait_for', { request_id: 'r1' })).toEqual({ cancelled: true, request_id: 'r1' });
    expect(await result('/', 'list_approvals', {})).toEqual({ approvals: [] });
  });
});

describe.skipIf(runtimeName() !== 'local')(
  'the local process itself (a turn dies with it; on Restate it goes on on another worker: apps/agent/src/nexus-serve-restate.test.ts)',
  () => {
    it('a turn the server died in (not paused) is interrupted after the restart', async () => {
      fixture = await startTestServer();
      const { llm, result, restart } = fixture;
      await result('/', 'create_agent', { agent_id: 'd' });
      llm.script({ text: 'never finished', stall: true });
      void result('/agent/d', 'send', { content: 'work', request_id: 'lost' }).catch(() => {});
      await waitUntil(() => llm.requests.length === 1, 'the turn to reach the model');

      // Started again while the first runtime is still there: what a process that died leaves behind.
      const restarted = await restart();
      expect(await restarted.call('wait_for', { request_id: 'lost' }, TOKEN_HOLDER, 'd')).toEqual({
        status: 'interrupted',
        request_id: 'lost',
      });
      expect(await restarted.call('get_context', {}, TOKEN_HOLDER, 'd')).toMatchObject({ message_count: 1 });
    });
  },
);

describe('who may decide an approval', () => {
  it("the token holder and the agent's ancestors — never the agent itself, a child or a sibling", async () => {
    fixture = await startTestServer({ tools: { rendezvous: { requiresConfirmation: true } } });
    const { runtime, result, llm, storedText } = fixture;
    const as = (id: string) => runtime.connectionFor(id);
    await result('/', 'create_agent', { agent_id: 'parent', preset: 'trusted' });
    await as('parent').call('create_agent', { agent_id: 'child', preset: 'sandboxed' });
    await result('/', 'create_agent', { agent_id: 'sibling', preset: 'trusted' });
    // A read-only tool that the policy says to confirm: a sandboxed child may call it too.
    const meet = (group: string) => ({ toolCalls: [{ name: 'rendezvous', arguments: { group, parties: 1 } }] });
    llm.script(meet('parent'), meet('child'), { text: 'child done' }, { text: 'parent done' });
    const parentTurn = await result<Paused>('/agent/parent', 'send', { content: 'meet', request_id: 'p' });
    const childTurn = await result<Paused>('/agent/child', 'send', { content: 'meet', request_id: 'c' });
    const parentApproval = { approval_id: parentTurn.approvals[0]?.approval_id, decision: 'approve' };
    const childApproval = { approval_id: childTurn.approvals[0]?.approval_id, decision: 'approve' };

    await expect(as('parent').call('resolve_approval', parentApproval, 'parent')).rejects.toThrow(
      /may not see or decide its own approvals/,
    );
    await expect(as('child').call('resolve_approval', childApproval, 'child')).rejects.toThrow(/may not see or decide its own approvals/);
    await expect(as('child').call('resolve_approval', parentApproval, 'parent')).rejects.toThrow(/descendants only/);
    await expect(as('sibling').call('resolve_approval', childApproval, 'child')).rejects.toThrow(/descendants only/);
    await expect(as('child').call('list_approvals', {}, 'child')).rejects.toThrow(/own approvals/);
    expect(await as('parent').call('list_approvals', {})).toEqual({ approvals: childTurn.approvals });
    expect(await as('sibling').call('list_approvals', {})).toEqual({ approvals: [] });

    expect(await as('parent').call('resolve_approval', childApproval, 'child')).toMatchObject({ status: 'approved' });
    expect(await result('/agent/child', 'wait_for', { request_id: 'c' })).toMatchObject({ content: 'child done' });
    expect(await result('/agent/parent', 'resolve_approval', { ...parentApproval, decision: 'deny' })).toMatchObject({ status: 'denied' });
    expect(await result('/agent/parent', 'wait_for', { request_id: 'p' })).toMatchObject({ content: 'parent done' });

    expect(await storedText()).not.toContain(SECRET_KEY);
  });
});
