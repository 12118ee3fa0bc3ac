import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_KEY } from '../test/agent-fixture.js';
import { runtimeName, startTestServer, type TestServer } from '../test/server-fixture.js';

let fixture: TestServer | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A server whose agent `id` has answered one turn ("hi"). */
async function serverWithOneTurn(id: string): Promise<TestServer> {
  fixture = await startTestServer();
  fixture.llm.script({ text: 'ok' });
  await fixture.result('/', 'create_agent', { agent_id: id });
  await fixture.result(`/agent/${id}`, 'send', { content: 'hi' });
  return fixture;
}

describe('the agent server', () => {
  it('creates an agent, runs a turn, reports it, lists it and destroys it', async () => {
    fixture = await startTestServer({ files: { 'notes.txt': 'status: draft\n' } });
    const { llm, result, dir } = fixture;
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'It says draft.' });

    expect(await result('/', 'create_agent', { agent_id: 'worker', system_prompt: 'Be brief.' })).toEqual({
      agent_id: 'worker',
      url: '/agent/worker',
    });
    expect(await result('/agent/worker', 'send', { content: 'What do the notes say?', request_id: 7 })).toEqual({
      content: 'It says draft.',
      request_id: 7,
      halted_at_iteration_limit: false,
    });
    expect(await result('/agent/worker', 'get_context')).toEqual({
      message_count: 4,
      system_prompt: 'Be brief.',
      halted_at_iteration_limit: false,
      last_iteration_count: 2,
      max_tool_iterations: 100,
    });
    const tokens = await result<Record<string, number>>('/agent/worker', 'get_tokens');
    expect(tokens.total).toBe((tokens.system ?? 0) + (tokens.tools ?? 0) + (tokens.messages ?? 0));
    const messages = await result<{ total: number; messages: Array<Record<string, unknown>> }>('/agent/worker', 'get_messages', {
      limit: 10,
    });
    expect(messages.total).toBe(4);
    expect(messages.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages.messages[2]).toMatchObject({
      index: 2,
      tool_call_id: expect.any(String),
      content: expect.stringContaining('status: draft'),
    });
    const { agents } = await result<{ agents: Array<Record<string, unknown>> }>('/', 'list_agents');
    expect(agents).toEqual([
      expect.objectContaining({
        agent_id: 'worker',
        is_temp: false,
        message_count: 4,
        parent_agent_id: null,
        child_count: 0,
        permission_level: 'sandboxed',
        cwd: dir.join('work'),
        write_paths: [],
      }),
    ]);

    expect(await result('/', 'destroy_agent', { agent_id: 'worker' })).toEqual({ success: true, agent_id: 'worker' });
    expect((await fixture.rpc('/agent/worker', 'get_context')).status).toBe(404);
  });

  it('never puts an API key in what it stores of an agent', async () => {
    const { storedText } = await serverWithOneTurn('a');

    const stored = await storedText();
    expect(stored).toContain('hi');
    expect(stored).not.toContain(SECRET_KEY);
  });
});

describe.skipIf(runtimeName() !== 'local')('the local process itself (its session files and token file; not a runtime contract)', () => {
  it('keeps a session as files 0600 in a directory 0700, and deletes them with the agent', async () => {
    const { result, dir } = await serverWithOneTurn('worker');

    const session = dir.join('state', 'sessions', 'worker');
    expect((await stat(join(session, 'session.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(session, 'messages.jsonl'))).mode & 0o777).toBe(0o600);
    expect((await stat(session)).mode & 0o777).toBe(0o700);
    await result('/', 'destroy_agent', { agent_id: 'worker' });
    await expect(stat(session)).rejects.toThrow(/ENOENT/);
  });

  it('writes its token with mode 0600 and removes it when it stops', async () => {
    fixture = await startTestServer();
    const { server, dir } = fixture;
    expect(server.token).toMatch(/^nxk_[A-Za-z0-9_-]{43}$/);
    expect(server.tokenFile).toBe(dir.join('state', `rpc-${server.port}.token`));
    expect((await stat(server.tokenFile as string)).mode & 0o777).toBe(0o600);
    expect(await readFile(server.tokenFile as string, 'utf8')).toBe(`${server.token}\n`);
    await server.close();
    await expect(stat(server.tokenFile as string)).rejects.toThrow(/ENOENT/);
  });
});
