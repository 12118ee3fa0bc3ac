import { appendFile, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerFixture, type ServerFixture } from '../test/server-fixture.js';
import { TOKEN_HOLDER } from './index.js';

let fixture: ServerFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('sessions on disk (specs/agent-server.md §9)', () => {
  it('a send appends only its new messages to the log; the header holds everything else', async () => {
    fixture = await createServerFixture();
    const { llm, result, dir } = fixture;
    const log = dir.join('state', 'sessions', 'a', 'messages.jsonl');
    await result('/', 'create_agent', { agent_id: 'a' });
    llm.script({ text: 'first' }, { text: 'second' });
    await result('/agent/a', 'send', { content: 'one' });
    const before = await readFile(log);

    await result('/agent/a', 'send', { content: 'two' });

    const after = await readFile(log);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(lines(after.subarray(before.length).toString()).map((line) => JSON.parse(line).role)).toEqual(['user', 'assistant']);
    const header = JSON.parse(await readFile(dir.join('state', 'sessions', 'a', 'session.json'), 'utf8'));
    expect(header).toMatchObject({ agent_id: 'a', schema_version: 2 });
    expect(header).not.toHaveProperty('messages');
  });

  it('drops a torn last line on restore, keeps what came before, and reports it', async () => {
    fixture = await createServerFixture();
    const { llm, result, dir } = fixture;
    const log = dir.join('state', 'sessions', 'a', 'messages.jsonl');
    await result('/', 'create_agent', { agent_id: 'a' });
    llm.script({ text: 'kept' }, { text: 'after the crash' });
    await result('/agent/a', 'send', { content: 'one' });
    await appendFile(log, '{"role":"user","content":"half wri');

    const restarted = await fixture.restart();
    const context = await restarted.call('get_context', {}, TOKEN_HOLDER, 'a');

    expect(context).toMatchObject({ message_count: 2, restore_warnings: [expect.stringMatching(/messages\.jsonl.*torn/)] });
    await restarted.call('send', { content: 'two' }, TOKEN_HOLDER, 'a');
    const roles = lines(await readFile(log, 'utf8')).map((line) => JSON.parse(line).role);
    expect(roles).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('after a save that failed, the next one writes the whole conversation', async () => {
    fixture = await createServerFixture();
    const { llm, result, rpc, dir } = fixture;
    const log = dir.join('state', 'sessions', 'a', 'messages.jsonl');
    await result('/', 'create_agent', { agent_id: 'a' });
    llm.respondWith(() => ({ text: 'answered' }));
    await result('/agent/a', 'send', { content: 'one' });
    await rm(log);
    await mkdir(log);
    // A turn that cannot be saved does not start.
    expect((await rpc('/agent/a', 'send', { content: 'two' })).body.error?.message).toMatch(/messages\.jsonl/);
    await rm(log, { recursive: true });

    await result('/agent/a', 'send', { content: 'three' });

    const restored = await fixture.restart();
    expect(await restored.call('get_context', {}, TOKEN_HOLDER, 'a')).toMatchObject({ message_count: 4 });
    const { messages } = (await restored.call('get_messages', {}, TOKEN_HOLDER, 'a')) as { messages: Array<{ content: string }> };
    expect(messages.map((message) => message.content)).toEqual(['one', 'answered', 'three', 'answered']);
  });

  it('converts a session in the single-file format on first use', async () => {
    fixture = await createServerFixture();
    const { dir } = fixture;
    const sessions = dir.join('state', 'sessions');
    await mkdir(sessions, { recursive: true });
    const old = {
      schema_version: 1,
      agent_id: 'old',
      created_at: '2026-01-01T00:00:00.000Z',
      modified_at: '2026-01-01T00:00:00.000Z',
      model: 'fast',
      system_prompt: 'Old prompt.',
      cwd: dir.join('work'),
      permission_level: 'sandboxed',
      preset: 'sandboxed',
      disabled_tools: [],
      write_paths: [],
      parent_agent_id: null,
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      ],
      token_usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
    };
    await writeFile(`${sessions}/old.json`, JSON.stringify(old));

    const context = await (await fixture.restart()).call('get_context', {}, TOKEN_HOLDER, 'old');

    expect(context).toMatchObject({ message_count: 2, system_prompt: 'Old prompt.' });
    expect((await readdir(sessions)).sort()).toEqual(['old']);
    expect(lines(await readFile(`${sessions}/old/messages.jsonl`, 'utf8')).map((line) => JSON.parse(line))).toEqual(old.messages);
    expect(await (await fixture.restart()).call('get_context', {}, TOKEN_HOLDER, 'old')).toMatchObject({ message_count: 2 });
  });

  it('a compaction rewrites the log with the compacted conversation', async () => {
    fixture = await createServerFixture();
    const { llm, result, dir } = fixture;
    await result('/', 'create_agent', { agent_id: 'a' });
    llm.script({ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'summary of it all' });
    for (const content of ['a', 'b', 'c']) await result('/agent/a', 'send', { content });

    const compacted = await result<{ compacted: boolean }>('/agent/a', 'compact', { force: true });

    const context = await (await fixture.restart()).call('get_context', {}, TOKEN_HOLDER, 'a');
    const log = lines(await readFile(dir.join('state', 'sessions', 'a', 'messages.jsonl'), 'utf8'));
    expect(compacted.compacted).toBe(true);
    expect(context).toMatchObject({ message_count: log.length });
    expect(log[0]).toContain('summary of it all');
    expect(log.join('\n')).not.toContain('"content":"a"');
  });
});

describe('sessions on disk against a planted path (DESIGN.md §6)', () => {
  const victimText = '{"role":"user","content":"precious"}\nno newline at the end';

  it('a send never appends through a log or a session folder planted as a symlink', async () => {
    fixture = await createServerFixture();
    const { llm, result, rpc, dir } = fixture;
    const sessions = dir.join('state', 'sessions');
    await writeFile(dir.join('victim.jsonl'), victimText);
    await mkdir(dir.join('elsewhere'));
    await writeFile(dir.join('elsewhere', 'messages.jsonl'), victimText);
    for (const id of ['log', 'folder']) await result('/', 'create_agent', { agent_id: id });
    await rm(`${sessions}/log/messages.jsonl`);
    await symlink(dir.join('victim.jsonl'), `${sessions}/log/messages.jsonl`);
    await rm(`${sessions}/folder`, { recursive: true });
    await symlink(dir.join('elsewhere'), `${sessions}/folder`);
    llm.respondWith(() => ({ text: 'answered' }));

    for (const id of ['log', 'folder']) await rpc(`/agent/${id}`, 'send', { content: 'hello' });

    expect(await readFile(dir.join('victim.jsonl'), 'utf8')).toBe(victimText);
    expect(await readFile(dir.join('elsewhere', 'messages.jsonl'), 'utf8')).toBe(victimText);
  });

  it('a restore never reads or cuts a torn tail through a planted symlink', async () => {
    fixture = await createServerFixture();
    const { result, dir } = fixture;
    await writeFile(dir.join('victim.jsonl'), victimText);
    await result('/', 'create_agent', { agent_id: 'a' });
    const log = dir.join('state', 'sessions', 'a', 'messages.jsonl');
    await rm(log);
    await symlink(dir.join('victim.jsonl'), log);

    await expect((await fixture.restart()).call('get_context', {}, TOKEN_HOLDER, 'a')).rejects.toThrow(/messages\.jsonl/);

    expect(await readFile(dir.join('victim.jsonl'), 'utf8')).toBe(victimText);
  });

  it('an agent id with path segments reaches no session outside sessions/', async () => {
    fixture = await createServerFixture();
    const { dir } = fixture;
    const id = 'a/../../escape';
    await mkdir(dir.join('state', 'escape'), { recursive: true });
    const header = {
      schema_version: 2,
      agent_id: id,
      created_at: '2026-01-01T00:00:00.000Z',
      modified_at: '2026-01-01T00:00:00.000Z',
      model: 'fast',
      system_prompt: 'Planted.',
      cwd: dir.join('work'),
      permission_level: 'trusted',
      preset: 'trusted',
      disabled_tools: [],
      write_paths: [],
      parent_agent_id: null,
      token_usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    await writeFile(dir.join('state', 'escape', 'session.json'), JSON.stringify(header));
    await writeFile(dir.join('state', 'escape', 'messages.jsonl'), '');
    const pool = await fixture.restart();

    await expect(pool.call('get_context', {}, TOKEN_HOLDER, id)).rejects.toThrow(/No agent/);
    await expect(pool.connectionFor('x').call('get_context', {}, id)).rejects.toThrow(/No agent/);
    expect(pool.ids).toEqual([]);
  });
});
