import { readFile } from 'node:fs/promises';
import { waitUntil } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeName, startTestServer, type TestServer } from '../test/server-fixture.js';
import { AgentPool, TOKEN_HOLDER } from './index.js';

let fixture: TestServer | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('turns on the agent server', () => {
  it('cancels a running turn and a queued one, and says when there is nothing to cancel', async () => {
    fixture = await startTestServer();
    const { llm, result } = fixture;
    await result('/', 'create_agent', { agent_id: 'a' });
    llm.script({ text: 'never finished', stall: true }, { text: 'after' });

    const running = result('/agent/a', 'send', { content: 'one', request_id: 'r1' });
    await waitUntil(() => llm.requests.length === 1, 'the first turn to reach the model');
    const queued = result('/agent/a', 'send', { content: 'two', request_id: 'r2' });
    // The queued send reaches the server in its own time; cancelling before it did finds nothing.
    await waitUntil(
      async () => (await result('/agent/a', 'cancel', { request_id: 'r2' })).cancelled === true,
      'the queued turn to be cancelled',
    );

    expect(await queued).toEqual({ cancelled: true, request_id: 'r2' });
    // Cancelled once, the queued turn is over, though the turn ahead of it still runs.
    expect(await result('/agent/a', 'cancel', { request_id: 'r2' })).toEqual({
      cancelled: false,
      request_id: 'r2',
      reason: 'not_found_or_completed',
    });
    expect(await result('/agent/a', 'cancel', { request_id: 'r1' })).toEqual({ cancelled: true, request_id: 'r1' });
    expect(await running).toEqual({ cancelled: true, request_id: 'r1' });
    // A repeated send of the turn cancelled while queued is a retry: it answers that turn, not runs it again.
    expect(await result('/agent/a', 'send', { content: 'two', request_id: 'r2' })).toEqual({ cancelled: true, request_id: 'r2' });
    expect((await fixture.rpc('/agent/a', 'send', { content: 'other', request_id: 'r2' })).body.error?.message).toMatch(/other content/);
    expect(await result('/agent/a', 'cancel', { request_id: 'r1' })).toEqual({
      cancelled: false,
      request_id: 'r1',
      reason: 'not_found_or_completed',
    });
    expect(await result('/agent/a', 'send', { content: 'three' })).toMatchObject({ content: 'after' });
    expect(llm.requests).toHaveLength(2);
  });

  it('runs turns of different agents at once', async () => {
    fixture = await startTestServer();
    const { llm, result } = fixture;
    await result('/', 'create_agent', { agent_id: 'a' });
    await result('/', 'create_agent', { agent_id: 'b' });
    llm.script(
      { toolCalls: [{ name: 'rendezvous', arguments: { group: 'server', parties: 2 } }] },
      { toolCalls: [{ name: 'rendezvous', arguments: { group: 'server', parties: 2 } }] },
    );
    llm.respondWith(() => ({ text: 'met' }));

    const answers = await Promise.all([result('/agent/a', 'send', { content: 'meet' }), result('/agent/b', 'send', { content: 'meet' })]);

    expect(answers.map((answer) => answer.content)).toEqual(['met', 'met']);
  });

  it('queues an initial message, or waits for its answer', async () => {
    fixture = await startTestServer();
    const { llm, result } = fixture;
    llm.script({ text: 'first answer' }, { text: 'waited answer' });

    const queued = await result('/', 'create_agent', { agent_id: 'q', initial_message: 'start' });
    expect(queued).toMatchObject({ agent_id: 'q', initial_status: 'queued', initial_request_id: expect.any(String) });
    await waitUntil(() => llm.requests.length === 1, 'the initial message to reach the model');
    const waited = await result('/', 'create_agent', { agent_id: 'w', initial_message: 'start', wait_for_initial_response: true });
    expect(waited).toMatchObject({ agent_id: 'w', response: { content: 'waited answer', halted_at_iteration_limit: false } });
  });

  it('refuses what needs confirmation when the send said deny, and grants it when it said allow', async () => {
    fixture = await startTestServer();
    const { llm, result, dir } = fixture;
    await result('/', 'create_agent', { agent_id: 't', preset: 'trusted' });
    const outside = dir.join('outside.txt');
    llm.script(
      { toolCalls: [{ name: 'write_file', arguments: { path: outside, content: 'x' } }] },
      { text: 'refused' },
      { toolCalls: [{ name: 'write_file', arguments: { path: outside, content: 'allowed' } }] },
      { text: 'written' },
    );

    expect(await result('/agent/t', 'send', { content: 'write it', confirm: 'deny' })).toMatchObject({ content: 'refused' });
    await expect(readFile(outside)).rejects.toThrow(/ENOENT/);
    await result('/agent/t', 'send', { content: 'write it', confirm: 'allow' });
    expect(await readFile(outside, 'utf8')).toBe('allowed');
  });

  it('streams a send as server-sent events, ending with the result', async () => {
    fixture = await startTestServer({ files: { 'a.txt': 'alpha\n' } });
    const { llm, result, streamed } = fixture;
    await result('/', 'create_agent', { agent_id: 's' });
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'It says alpha.' });

    const { contentType, events } = await streamed('/agent/s', { content: 'read a.txt', request_id: 'x' });
    expect(contentType).toBe('text/event-stream');

    expect(events.map((event) => event.name)).toEqual(['tool_call', 'tool_result', ...events.slice(2, -1).map(() => 'text'), 'result']);
    expect(events[0]?.data).toMatchObject({ name: 'read_file', arguments: { path: 'a.txt' } });
    expect(events[1]?.data).toMatchObject({ name: 'read_file', success: true, output: expect.stringContaining('alpha') });
    expect(events.at(-1)?.data).toEqual({ content: 'It says alpha.', request_id: 'x', halted_at_iteration_limit: false });
  });

  it('cancels a streamed turn when the client goes away', async () => {
    fixture = await startTestServer();
    const { llm, result, server, runtime } = fixture;
    await result('/', 'create_agent', { agent_id: 's' });
    llm.script({ text: 'a b c d e f g h', stallAfterChunks: 2 }, { text: 'next' });
    const controller = new AbortController();

    const response = await fetch(`${server.url}/agent/s`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'send', params: { content: 'go', stream: true } }),
    });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();

    // The turn ended (cancelled), so the next one runs at once.
    expect(await runtime.call('send', { content: 'again' }, TOKEN_HOLDER, 's')).toMatchObject({ content: 'next' });
  });
});

describe('sessions', () => {
  it('a restarted server answers for a saved agent, with its conversation, even under concurrent requests', async () => {
    fixture = await startTestServer();
    const { llm, result, runtime, restart } = fixture;
    await result('/', 'create_agent', { agent_id: 'keeper', system_prompt: 'Remember.' });
    llm.script({ text: 'noted' });
    await result('/agent/keeper', 'send', { content: 'my number is 42' });
    await runtime.close();

    const restarted = await restart();
    const contexts = await Promise.all(Array.from({ length: 8 }, () => restarted.call('get_context', {}, TOKEN_HOLDER, 'keeper')));

    expect(new Set(contexts.map((context) => JSON.stringify(context))).size).toBe(1);
    expect(contexts[0]).toMatchObject({ message_count: 2, system_prompt: 'Remember.' });
    // The local runtime restores the session into memory, once.
    if (restarted instanceof AgentPool) expect(restarted.ids).toEqual(['keeper']);
  });

  it('an agent created without an id is temporary: its id starts with a dot', async () => {
    fixture = await startTestServer();
    const { result } = fixture;
    const { agent_id } = await result<{ agent_id: string }>('/', 'create_agent', {});
    expect(agent_id).toMatch(/^\.[a-z0-9]+$/);
    const { agents } = await result<{ agents: Array<Record<string, unknown>> }>('/', 'list_agents');
    expect(agents).toEqual([expect.objectContaining({ agent_id, is_temp: true })]);
  });
});

describe.skipIf(runtimeName() !== 'local')('the local process itself (session files; not a runtime contract)', () => {
  it('a temporary agent is never saved, and a broken session file is reported, not replaced', async () => {
    fixture = await startTestServer();
    const { result, rpc, dir } = fixture;
    const { agent_id } = await result<{ agent_id: string }>('/', 'create_agent', {});
    expect(agent_id).toMatch(/^\.\d+$/);
    const { mkdir, readdir, writeFile } = await import('node:fs/promises');
    expect(await readdir(dir.join('state', 'sessions')).catch(() => [])).toEqual([]);

    await mkdir(dir.join('state', 'sessions'), { recursive: true });
    await writeFile(dir.join('state', 'sessions', 'broken.json'), '{ not json');
    const answer = await rpc('/agent/broken', 'get_context');
    expect(answer.status).toBe(500);
    expect(answer.body.error?.message).toMatch(/broken\.json is not a valid session/);
    expect(await readFile(dir.join('state', 'sessions', 'broken.json'), 'utf8')).toBe('{ not json');
  });
});
