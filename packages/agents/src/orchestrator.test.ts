import { readFile } from 'node:fs/promises';
import { agentSkills } from '@nexus/skills-agents';
import { fsSkills } from '@nexus/skills-fs';
import { waitUntil } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { testFamily } from '../test/agent-fixture.js';
import { createServerFixture, type ServerFixture } from '../test/server-fixture.js';

let fixture: ServerFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('an orchestrator agent', () => {
  it('creates a sandboxed child, sends it work, reads its status and destroys it — all through its nexus_* tools', async () => {
    fixture = await createServerFixture({ families: [fsSkills, testFamily, agentSkills] });
    const { llm, result, pool, dir } = fixture;
    await result('/', 'create_agent', { agent_id: 'boss', preset: 'trusted' });
    llm.script(
      { toolCalls: [{ name: 'nexus_create', arguments: { agent_id: 'helper', preset: 'sandboxed', allowed_write_paths: ['.'] } }] },
      { toolCalls: [{ name: 'nexus_send', arguments: { agent_id: 'helper', content: 'Write hello.txt saying hi.' } }] },
      // The child's turn, inside the boss's nexus_send.
      { toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'hi\n' } }] },
      { text: 'Done writing.' },
      { toolCalls: [{ name: 'nexus_status', arguments: { agent_id: 'helper' } }] },
      { toolCalls: [{ name: 'nexus_destroy', arguments: { agent_id: 'helper' } }] },
      { text: 'All done.' },
    );
    const results: Array<{ name: string; success: boolean; output: string }> = [];

    const answer = await pool.call('send', { content: 'Get hello.txt written by a helper.' }, { kind: 'token-holder' }, 'boss', {
      onEvent: (event) => {
        if (event.type === 'tool-result') results.push({ name: event.name, success: event.success, output: event.output });
      },
    });

    expect(answer).toMatchObject({ content: 'All done.', halted_at_iteration_limit: false });
    expect(results.map(({ name, success }) => [name, success])).toEqual([
      ['nexus_create', true],
      ['nexus_send', true],
      ['nexus_status', true],
      ['nexus_destroy', true],
    ]);
    expect(results[1]?.output).toContain('Done writing.');
    expect(JSON.parse(results[2]?.output ?? '{}')).toMatchObject({
      tokens: { budget: expect.any(Number) },
      context: { message_count: 4, halted_at_iteration_limit: false },
    });
    expect(await readFile(dir.join('work', 'hello.txt'), 'utf8')).toBe('hi\n');
    expect(pool.ids).toEqual(['boss']);
  });
});

describe('cancelling an orchestrator', () => {
  it('cancels the turn its nexus_send started in the child', async () => {
    fixture = await createServerFixture({ families: [fsSkills, testFamily, agentSkills] });
    const { llm, result, pool } = fixture;
    await result('/', 'create_agent', { agent_id: 'boss', preset: 'trusted' });
    await pool.call('create_agent', { agent_id: 'helper' }, { kind: 'agent', id: 'boss' });
    llm.script(
      { toolCalls: [{ name: 'nexus_send', arguments: { agent_id: 'helper', content: 'Think for a long time.' } }] },
      { text: 'thinking forever', stall: true },
      { text: 'Free again.' },
    );
    const controller = new AbortController();

    const turn = pool.call('send', { content: 'Ask the helper.', request_id: 'boss-turn' }, { kind: 'token-holder' }, 'boss', {
      signal: controller.signal,
    });
    await waitUntil(() => llm.requests.length === 2, "the helper's turn to reach the model");
    controller.abort();

    expect(await turn).toEqual({ cancelled: true, request_id: 'boss-turn' });
    // The helper's turn ended too, so its next one runs at once.
    expect(await pool.call('send', { content: 'Still there?' }, { kind: 'token-holder' }, 'helper')).toMatchObject({
      content: 'Free again.',
    });
  });
});
