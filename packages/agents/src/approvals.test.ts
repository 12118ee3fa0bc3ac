import { readFile } from 'node:fs/promises';
import { defineSkill, resolvePreset, ToolResult } from '@nexus/core';
import { fsSkills } from '@nexus/skills-fs';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, recorded, sent, toolResults } from '../test/agent-fixture.js';

let fixture: Fixture | undefined;
let outside: TestDir | undefined;
afterEach(async () => {
  await fixture?.close();
  await outside?.cleanup();
  fixture = undefined;
  outside = undefined;
});

/** A trusted agent (writes outside its directory ask first) and a directory outside it. */
async function setUp() {
  fixture = await createFixture();
  outside = await testdir({});
  return { ...fixture, target: outside.join('out.txt') };
}

describe('approvals in the library (Agent.send without confirm)', () => {
  it('pauses at the call that needs confirmation — the calls after it wait — and an approval runs the exact call and goes on', async () => {
    const { llm, agent, target } = await setUp();
    recorded.length = 0;
    llm.script(
      {
        toolCalls: [
          { name: 'record', arguments: { label: 'before', delayMs: 0 } },
          { name: 'write_file', arguments: { path: target, content: 'approved text' } },
          { name: 'record', arguments: { label: 'after', delayMs: 0 } },
        ],
      },
      { text: 'Written.' },
    );
    const events: string[] = [];

    const paused = await agent.send('Write it.', { onEvent: (event) => events.push(event.type) });

    expect(paused.status).toBe('awaiting_approval');
    expect(paused.approvals).toHaveLength(1);
    const [approval] = paused.approvals;
    expect(approval).toMatchObject({
      tool: 'write_file',
      arguments: { path: target, content: 'approved text' },
      requestId: paused.requestId,
      question: expect.stringContaining(target),
      policyDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(events).toContain('approval-required');
    expect(recorded).toEqual(['before']);
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
    expect(agent.pendingApprovals.map((each) => each.approvalId)).toEqual([approval?.approvalId]);
    expect(llm.requests).toHaveLength(1);

    const resolution = agent.resolveApproval(approval?.approvalId ?? '', { decision: 'approve' });
    expect(resolution).toMatchObject({ status: 'approved', requestId: paused.requestId });
    const done = await resolution.result;

    expect(done).toMatchObject({ status: 'completed', content: 'Written.', approvals: [] });
    expect(await readFile(target, 'utf8')).toBe('approved text');
    expect(recorded).toEqual(['before', 'after']);
    expect(done.toolCalls.map(({ name, success }) => `${name}:${success}`)).toEqual(['record:true', 'write_file:true', 'record:true']);
    expect(toolResults(sent(llm, 1)).map((result) => result.content)).toEqual([
      'recorded before',
      expect.stringContaining('out.txt'),
      'recorded after',
    ]);
    expect(agent.pendingApprovals).toEqual([]);
    expect(() => agent.resolveApproval(approval?.approvalId ?? '', { decision: 'approve' })).toThrow(/No pending approval/);
  });

  it('a denial tells the model who denied it and why, and the turn goes on', async () => {
    const { llm, agent, target } = await setUp();
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'x' } }] }, { text: 'Understood.' });
    const paused = await agent.send('Write it.');

    const { status, result } = agent.resolveApproval(paused.approvals[0]?.approvalId ?? '', {
      decision: 'deny',
      note: 'not in that folder',
      by: 'the reviewer',
    });

    expect(status).toBe('denied');
    expect(await result).toMatchObject({ status: 'completed', content: 'Understood.' });
    expect(toolResults(sent(llm, 1))[0]?.content).toBe('Error (forbidden): denied by the reviewer: not in that folder');
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('an approval asked under another policy is stale: the call is not run and the model is told why', async () => {
    const { llm, agent, target, dir } = await setUp();
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'x' } }] }, { text: 'It was stale.' });
    const paused = await agent.send('Write it.');
    agent.registry.services.register('permissions', resolvePreset('trusted', { cwd: dir.path, blockedPaths: [dir.join('secrets')] }));

    const { status, result } = agent.resolveApproval(paused.approvals[0]?.approvalId ?? '', { decision: 'approve' });

    expect(status).toBe('stale');
    expect(await result).toMatchObject({ status: 'completed' });
    expect(toolResults(sent(llm, 1))[0]?.content).toMatch(
      /^Error \(forbidden\): the approval of this write_file call is stale: the agent's policy changed/,
    );
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('remember approves later calls of the same tool with the same arguments only', async () => {
    const { llm, agent, target } = await setUp();
    const write = (content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path: target, content } }] });
    llm.script(write('one'), { text: 'first' }, write('one'), { text: 'second' }, write('two'), { text: 'third' });

    const first = await agent.send('Write one.');
    await agent.resolveApproval(first.approvals[0]?.approvalId ?? '', { decision: 'approve', remember: true }).result;
    expect(agent.rememberedApprovals).toEqual([
      expect.objectContaining({ tool: 'write_file', arguments: JSON.stringify({ content: 'one', path: target }) }),
    ]);

    expect(await agent.send('Write one again.')).toMatchObject({ status: 'completed', content: 'second' });
    const other = await agent.send('Write two.');
    expect(other.status).toBe('awaiting_approval');
    expect(await readFile(target, 'utf8')).toBe('one');
  });

  it('cancelling a paused turn ends it: its approvals are gone, its call gets a result, and the next turn runs', async () => {
    const { llm, agent, target } = await setUp();
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'x' } }] }, { text: 'next turn' });
    const controller = new AbortController();
    const paused = await agent.send('Write it.', { signal: controller.signal, requestId: 'r1' });
    const queued = agent.send('Then this.');

    controller.abort();

    expect(await agent.turn('r1')?.end()).toMatchObject({ status: 'cancelled', cancelled: true });
    expect(agent.pendingApprovals).toEqual([]);
    expect(() => agent.resolveApproval(paused.approvals[0]?.approvalId ?? '', { decision: 'approve' })).toThrow(/No pending approval/);
    expect(await queued).toMatchObject({ status: 'completed', content: 'next turn' });
    expect(toolResults(sent(llm, 1))[0]?.content).toBe('Error (cancelled): cancelled by the user');
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('asks the confirm function when there is one, instead of pausing', async () => {
    fixture = await createFixture({ confirm: () => false });
    outside = await testdir({});
    const target = outside.join('out.txt');
    fixture.llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'x' } }] }, { text: 'refused' });

    expect(await fixture.agent.send('Write it.')).toMatchObject({ status: 'completed', content: 'refused', approvals: [] });
    expect(toolResults(sent(fixture.llm, 1))[0]?.content).toMatch(/needs confirmation, and it was not given/);
  });
});

describe('a skill that narrows the tools (toolScope)', () => {
  it('narrows them until the turn ends: the next turn has the whole policy again', async () => {
    const narrow = defineSkill({
      name: 'take_skill',
      description: 'Follows a skill whose instructions allow reading only.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      readOnly: true,
      create: (services) => () => {
        services.register('toolScope', { skill: 'reader', tools: ['read_file'] });
        return ToolResult.ok('taken');
      },
    });
    fixture = await createFixture({ families: [fsSkills, { name: 'scope', skills: [narrow] }] });
    const { llm, agent, dir } = fixture;
    const write = { toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'x' } }] };
    llm.script({ toolCalls: [{ name: 'take_skill', arguments: {} }] }, write, { text: 'refused' }, write, { text: 'written' });

    await agent.send('Take the skill, then write.');
    expect(toolResults(sent(llm, 2))[1]?.content).toMatch(/^Error \(forbidden\)/);

    expect(await agent.send('Now write.')).toMatchObject({ content: 'written' });
    expect(await readFile(dir.join('note.txt'), 'utf8')).toBe('x');
  });
});
