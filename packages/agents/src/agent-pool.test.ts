import { access, mkdir } from 'node:fs/promises';
import { defineSkill, ServiceContainer, type SkillSpec, ToolResult } from '@nexus/core';
import { createChangingTestFamily } from '@nexus/registry/testing';
import { fsSkills } from '@nexus/skills-fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerFixture, type ServerFixture } from '../test/server-fixture.js';
import { AgentPool, parseAgentSettings, type Requester, TOKEN_HOLDER } from './index.js';

let fixture: ServerFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const as = (id: string): Requester => ({ kind: 'agent', id });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason as Error & { rpcCode?: number },
  );
  expect(error?.rpcCode).toBe(-32602);
  return error?.message ?? '';
}

/** The tool names a turn of agent `id` offered the model. */
async function offeredTools(current: ServerFixture, id: string): Promise<string[]> {
  current.llm.script({ text: 'ok' });
  await current.pool.call('send', { content: 'hi' }, TOKEN_HOLDER, id);
  const tools = current.llm.requests.at(-1)?.body.tools as Array<{ function: { name: string } }>;
  return tools.map((tool) => tool.function.name);
}

describe('creating agents: the permission rules', () => {
  it('two creations of one id at the same moment: one succeeds, the other is the duplicate, and one agent follows the families', async () => {
    const shared = createChangingTestFamily({ name: 'shared', skills: [namedTool('first')] });
    fixture = await createServerFixture({ families: [shared] });
    const { pool } = fixture;

    const outcomes = await Promise.allSettled([0, 1].map(() => pool.call('create_agent', { agent_id: 'twin' }, TOKEN_HOLDER)));

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(await refusal(Promise.reject(rejected?.reason))).toBe('Agent "twin" already exists.');
    const { agents } = (await pool.call('list_agents', {}, TOKEN_HOLDER)) as { agents: Array<Record<string, unknown>> };
    expect(agents.map((agent) => agent.agent_id)).toEqual(['twin']);
    expect(shared.listenerCount).toBe(1);
  });

  it('a child is strictly below its parent, and a sandboxed agent creates nothing', async () => {
    fixture = await createServerFixture();
    const { pool } = fixture;
    await pool.call('create_agent', { agent_id: 'boss', preset: 'trusted' }, TOKEN_HOLDER);

    expect(await refusal(pool.call('create_agent', { agent_id: 'peer', preset: 'trusted' }, as('boss')))).toMatch(
      /must have a lower level than trusted, got "trusted"/,
    );
    expect(await pool.call('create_agent', { agent_id: 'helper', preset: 'sandboxed' }, as('boss'))).toMatchObject({ agent_id: 'helper' });
    expect(await refusal(pool.call('create_agent', { agent_id: 'grandchild' }, as('helper')))).toMatch(
      /"helper" is sandboxed and may not create agents/,
    );
    expect(await refusal(pool.call('create_agent', { agent_id: 'x', preset: 'yolo' }, TOKEN_HOLDER))).toMatch(
      /yolo agent cannot be created/,
    );
    const { agents } = (await pool.call('list_agents', {}, TOKEN_HOLDER)) as { agents: Array<Record<string, unknown>> };
    expect(agents.find((agent) => agent.agent_id === 'helper')).toMatchObject({ parent_agent_id: 'boss', permission_level: 'sandboxed' });
    expect(agents.find((agent) => agent.agent_id === 'boss')).toMatchObject({ child_count: 1 });
  });

  it('the token holder naming a parent gets that parent’s ceiling, read from the live parent', async () => {
    fixture = await createServerFixture();
    const { pool } = fixture;
    await pool.call('create_agent', { agent_id: 'boss', preset: 'trusted', disable_tools: ['grep'] }, TOKEN_HOLDER);

    expect(await refusal(pool.call('create_agent', { agent_id: 'c', preset: 'trusted', parent_agent_id: 'boss' }, TOKEN_HOLDER))).toMatch(
      /lower level/,
    );
    expect(await refusal(pool.call('create_agent', { agent_id: 'c', parent_agent_id: 'ghost' }, TOKEN_HOLDER))).toMatch(
      /No parent agent "ghost"/,
    );
    expect(await refusal(pool.call('create_agent', { agent_id: 'c', parent_agent_id: 'other' }, as('boss')))).toMatch(
      /only its own children/,
    );
    await pool.call('create_agent', { agent_id: 'c', parent_agent_id: 'boss', allowed_write_paths: ['.'] }, TOKEN_HOLDER);

    expect(await offeredTools(fixture, 'c')).not.toContain('grep');
  });

  it('cwd and write paths stay inside what the parent may reach', async () => {
    fixture = await createServerFixture();
    const { pool, dir } = fixture;
    await mkdir(dir.join('work', 'sub'));
    await mkdir(dir.join('elsewhere'));
    await pool.call('create_agent', { agent_id: 'boss', preset: 'trusted' }, TOKEN_HOLDER);

    expect(await refusal(pool.call('create_agent', { agent_id: 'c', cwd: 'missing' }, as('boss')))).toMatch(/not an existing directory/);
    expect(
      await refusal(pool.call('create_agent', { agent_id: 'c', cwd: 'sub', allowed_write_paths: ['../../elsewhere'] }, as('boss'))),
    ).toMatch(/outside the agent's sandbox root/);
    expect(
      await refusal(pool.call('create_agent', { agent_id: 'c', cwd: dir.join('elsewhere'), allowed_write_paths: ['.'] }, as('boss'))),
    ).toMatch(/outside what "boss" may write/);
    await pool.call('create_agent', { agent_id: 'c', cwd: 'sub', allowed_write_paths: ['.'] }, as('boss'));
    const { agents } = (await pool.call('list_agents', {}, TOKEN_HOLDER)) as { agents: Array<Record<string, unknown>> };
    expect(agents.find((agent) => agent.agent_id === 'c')).toMatchObject({
      cwd: dir.join('work', 'sub'),
      write_paths: [dir.join('work', 'sub')],
    });
  });

  it('a sandboxed agent without write paths is offered no tool that writes; with them, it is', async () => {
    fixture = await createServerFixture();
    const { pool } = fixture;
    await pool.call('create_agent', { agent_id: 'reader' }, TOKEN_HOLDER);
    await pool.call('create_agent', { agent_id: 'writer', allowed_write_paths: ['.'] }, TOKEN_HOLDER);

    const reader = await offeredTools(fixture, 'reader');
    expect(reader).toEqual(expect.arrayContaining(['read_file', 'grep', 'list_directory']));
    for (const tool of [
      'write_file',
      'edit_file',
      'edit_lines',
      'append_file',
      'regex_replace',
      'patch',
      'mkdir',
      'copy_file',
      'rename',
      'record',
    ])
      expect(reader).not.toContain(tool);
    expect(await offeredTools(fixture, 'writer')).toEqual(expect.arrayContaining(['write_file', 'edit_file']));
  });
});

describe('who may do what to whom', () => {
  async function family(current: ServerFixture): Promise<AgentPool> {
    const { pool } = current;
    await pool.call('create_agent', { agent_id: 'boss', preset: 'trusted' }, TOKEN_HOLDER);
    await pool.call('create_agent', { agent_id: 'other', preset: 'trusted' }, TOKEN_HOLDER);
    await pool.call('create_agent', { agent_id: 'kid1' }, as('boss'));
    await pool.call('create_agent', { agent_id: 'kid2' }, as('boss'));
    return pool;
  }

  it.each([
    ['a sibling', 'kid1', 'kid2'],
    ['a child its parent', 'kid1', 'boss'],
    ['an unrelated agent', 'other', 'boss'],
    ['an agent another’s child', 'other', 'kid1'],
  ])('destroying: refused for %s', async (_name, requester, target) => {
    fixture = await createServerFixture();
    const pool = await family(fixture);
    expect(await refusal(pool.call('destroy_agent', { agent_id: target }, as(requester)))).toMatch(
      /may destroy only itself and its own children/,
    );
    expect(pool.ids).toContain(target);
  });

  it.each([
    ['itself', 'kid1', 'kid1'],
    ['its parent → a child', 'boss', 'kid2'],
    ['the token holder', undefined, 'other'],
  ])('destroying: allowed for %s', async (_name, requester, target) => {
    fixture = await createServerFixture();
    const pool = await family(fixture);
    expect(await pool.call('destroy_agent', { agent_id: target }, requester ? as(requester) : TOKEN_HOLDER)).toEqual({
      success: true,
      agent_id: target,
    });
    expect(pool.ids).not.toContain(target);
  });

  it('a sandboxed agent sends to its parent only, and no agent sends to itself', async () => {
    fixture = await createServerFixture();
    const pool = await family(fixture);
    fixture.llm.script({ text: 'Noted.' });

    expect(await pool.call('send', { content: 'done' }, as('kid1'), 'boss')).toMatchObject({ content: 'Noted.' });
    expect(await refusal(pool.call('send', { content: 'psst' }, as('kid1'), 'kid2'))).toMatch(/sandboxed and may send only to its parent/);
    expect(await refusal(pool.call('send', { content: 'hi me' }, as('boss'), 'boss'))).toMatch(/may not send to itself/);
    expect(await refusal(pool.call('shutdown_server', {}, as('kid1')))).toMatch(/A sandboxed agent may not shut the server down/);
  });
});

/** A read-only tool that answers its own name. */
function namedTool(name: string): SkillSpec {
  return defineSkill({
    name,
    description: `Answers ${name}.`,
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    create: () => () => ToolResult.ok(name),
  });
}

describe('agents over a changing family the server shares', () => {
  it('a destroyed agent no longer follows the family, a live one still does, and none does once the server closed', async () => {
    const shared = createChangingTestFamily({ name: 'shared', skills: [namedTool('first')] });
    fixture = await createServerFixture({ families: [shared] });
    const { pool } = fixture;
    await pool.call('create_agent', { agent_id: 'live', preset: 'trusted' }, TOKEN_HOLDER);
    for (let index = 0; index < 3; index++) {
      const temporary = (await pool.call('create_agent', {}, TOKEN_HOLDER)) as { agent_id: string };
      await pool.call('destroy_agent', { agent_id: temporary.agent_id }, TOKEN_HOLDER);
      await pool.call('create_agent', { agent_id: `named-${index}` }, TOKEN_HOLDER);
      await pool.call('shutdown', {}, TOKEN_HOLDER, `named-${index}`);
    }
    expect(shared.listenerCount).toBe(1);

    shared.set([namedTool('first'), namedTool('second')]);
    expect((await offeredTools(fixture, 'live')).sort()).toEqual(['first', 'second']);

    await fixture.server.close();
    expect(shared.listenerCount).toBe(0);
  });
});

describe('a sandboxed agent without write paths over a changing family', () => {
  it('is neither offered nor runs a writing tool the family adds later, and gets a read-only one', async () => {
    const scribbled: string[] = [];
    const scribble = defineSkill({
      name: 'scribble',
      description: 'Writes a note.',
      parameters: { type: 'object', properties: {} },
      destructive: true,
      create: () => () => {
        scribbled.push('note');
        return ToolResult.ok('scribbled');
      },
    });
    const shared = createChangingTestFamily({ name: 'shared', skills: [namedTool('first')] });
    fixture = await createServerFixture({ families: [shared] });
    const { pool } = fixture;
    await pool.call('create_agent', { agent_id: 'reader' }, TOKEN_HOLDER);
    await pool.call('create_agent', { agent_id: 'writer', allowed_write_paths: ['.'] }, TOKEN_HOLDER);

    shared.set([namedTool('first'), namedTool('lookup'), scribble]);

    expect((await offeredTools(fixture, 'reader')).sort()).toEqual(['first', 'lookup']);
    expect((await offeredTools(fixture, 'writer')).sort()).toEqual(['first', 'lookup', 'scribble']);
    fixture.llm.script({ toolCalls: [{ name: 'scribble', arguments: {} }] }, { text: 'It was refused.' });
    await pool.call('send', { content: 'Scribble a note.' }, TOKEN_HOLDER, 'reader');
    const { messages } = (await pool.call('get_messages', {}, TOKEN_HOLDER, 'reader')) as { messages: Array<Record<string, unknown>> };
    expect(messages.filter((message) => message.role === 'tool')).toEqual([
      expect.objectContaining({ content: expect.stringMatching(/^Error \(forbidden\): Tool "scribble" /) }),
    ]);
    expect(scribbled).toEqual([]);
  });
});

describe('a read-only agent against its ceiling', () => {
  it('is not unlocked by a sender allowing confirmations, nor by a restart, nor through a child', async () => {
    fixture = await createServerFixture();
    const { llm, dir, pool } = fixture;
    await pool.call('create_agent', { agent_id: 'reader' }, TOKEN_HOLDER);
    const restarted = new AgentPool({
      settings: parseAgentSettings({
        providers: { local: { type: 'openai-compatible', baseUrl: llm.url } },
        models: { fast: { provider: 'local', id: 'test-model' } },
        defaultModel: 'fast',
      }),
      families: [fsSkills],
      cwd: dir.join('work'),
      stateDir: dir.join('state'),
    });

    for (const current of [pool, restarted]) {
      llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'written' } }] }, { text: 'Done.' });
      await current.call('send', { content: 'Write a note.', confirm: 'allow' }, TOKEN_HOLDER, 'reader');
      const { messages } = (await current.call('get_messages', {}, TOKEN_HOLDER, 'reader')) as { messages: Array<Record<string, unknown>> };
      expect(messages.filter((message) => message.role === 'tool').at(-1)).toMatchObject({
        content: expect.stringMatching(/^Error \(forbidden\): Tool "write_file" /),
      });
    }
    expect(
      await refusal(pool.call('create_agent', { agent_id: 'kid', parent_agent_id: 'reader', allowed_write_paths: ['.'] }, TOKEN_HOLDER)),
    ).toMatch(/"reader" is sandboxed and may not create agents/);
    await expect(access(dir.join('work', 'note.txt'))).rejects.toThrow(/ENOENT/);
    await restarted.close();
  });
});

describe('assembling an agent of the pool', () => {
  it('without a system prompt, it gets the default one naming its cwd and level; the pool’s services reach its skills', async () => {
    const whoAmI = defineSkill({
      name: 'who_am_i',
      description: 'Says the agent id and whether a confirmer is registered.',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      create: (services) => () => ToolResult.ok(`${services.get('agentId')} confirm:${services.has('confirm')}`),
    });
    fixture = await createServerFixture({
      families: [{ name: 'test', skills: [whoAmI] }],
      services: () => new ServiceContainer().register('confirm', async () => false),
    });
    const { pool } = fixture;
    await pool.call('create_agent', { agent_id: 'plain' }, TOKEN_HOLDER);

    const context = (await pool.call('get_context', {}, TOKEN_HOLDER, 'plain')) as { system_prompt: string };
    expect(context.system_prompt).toMatch(
      /^You are Nexus, a careful assistant working in the directory .+ with the "sandboxed" permission level\./,
    );
    fixture.llm.script({ toolCalls: [{ name: 'who_am_i', arguments: {} }] }, { text: 'Done.' });
    await pool.call('send', { content: 'Who are you?' }, TOKEN_HOLDER, 'plain');
    const { messages } = (await pool.call('get_messages', {}, TOKEN_HOLDER, 'plain')) as { messages: Array<Record<string, unknown>> };
    expect(messages.filter((message) => message.role === 'tool')).toEqual([expect.objectContaining({ content: 'plain confirm:true' })]);
  });
});
