import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, recorded, sent, toolResults } from '../test/agent-fixture.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe.each(['openai-compatible', 'anthropic'] as const)('the loop over %s', (type) => {
  it('reads and edits a real file over several steps, then answers', async () => {
    fixture = await createFixture({ type, files: { 'notes.txt': 'status: draft\n' } });
    const { llm, agent, dir, events } = fixture;
    llm.script(
      { text: 'Let me look.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'draft', new_string: 'final' } }] },
      { text: 'The status is now final.' },
    );

    const result = await agent.send('Mark the notes final.', { onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ content: 'The status is now final.', haltedAtIterationLimit: false, cancelled: false });
    expect(await readFile(dir.join('notes.txt'), 'utf8')).toBe('status: final\n');
    expect(result.toolCalls.map(({ name, success }) => ({ name, success }))).toEqual([
      { name: 'read_file', success: true },
      { name: 'edit_file', success: true },
    ]);
    expect(llm.requests).toHaveLength(3);
    const [firstResult] = toolResults(sent(llm, 1));
    expect(firstResult?.content).toContain('status: draft');
    expect(events.filter((event) => event.type === 'tool-call').map((event) => event.type === 'tool-call' && event.arguments)).toEqual([
      { path: 'notes.txt' },
      { path: 'notes.txt', old_string: 'draft', new_string: 'final' },
    ]);
    expect(
      events
        .filter((event) => event.type === 'text')
        .map((event) => event.type === 'text' && event.text)
        .join(''),
    ).toBe('Let me look.The status is now final.');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('feeds a sandbox refusal to the model as text and goes on', async () => {
    fixture = await createFixture({ type, preset: 'sandboxed' });
    const { llm, agent } = fixture;
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: '/etc/passwd' } }] }, { text: 'I may not read that file.' });

    const result = await agent.send('Show /etc/passwd.');

    expect(result.content).toBe('I may not read that file.');
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'read_file', success: false, kind: 'forbidden' })]);
    const [fed] = toolResults(sent(llm, 1));
    expect(fed?.content).toMatch(/^Error \(forbidden\): /);
    expect(fed?.content).not.toContain('root:');
  });
});

describe('the loop', () => {
  it('fails arguments that are not JSON closed, keeps the raw text and lets the model retry', async () => {
    fixture = await createFixture({ files: { 'a.txt': 'alpha\n' } });
    const { llm, agent } = fixture;
    llm.script(
      { toolCalls: [{ name: 'read_file', arguments: '{"path": "a.txt"' }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'It says alpha.' },
    );

    const result = await agent.send('Read a.txt.');

    expect(result.content).toBe('It says alpha.');
    expect(result.toolCalls[0]).toMatchObject({ arguments: '{"path": "a.txt"', success: false, kind: 'invalid_input' });
    expect(result.toolCalls[1]).toMatchObject({ arguments: { path: 'a.txt' }, success: true });
    const [fed] = toolResults(sent(llm, 1));
    expect(fed?.content).toMatch(/^Error \(invalid_input\): the arguments are not a JSON object/);
    expect(fed?.content).toContain('read_file again');
  });

  it('runs the read-only calls of one step at once', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.script(
      {
        toolCalls: [
          { name: 'rendezvous', arguments: { group: 'g1', parties: 3 } },
          { name: 'rendezvous', arguments: { group: 'g1', parties: 3 } },
          { name: 'rendezvous', arguments: { group: 'g1', parties: 3 } },
        ],
      },
      { text: 'All met.' },
    );

    const result = await agent.send('Meet.');

    expect(result.toolCalls.map((call) => call.success)).toEqual([true, true, true]);
  });

  it('runs calls that change things one at a time, in the order the model gave', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    recorded.length = 0;
    llm.script(
      { toolCalls: ['1', '2', '3', '4'].map((label, index) => ({ name: 'record', arguments: { label, delayMs: 80 - index * 20 } })) },
      { text: 'Recorded.' },
    );

    await agent.send('Record.');

    expect(recorded).toEqual(['1', '2', '3', '4']);
  });

  it('stops at the iteration limit without running the last calls, and the next turn goes on', async () => {
    fixture = await createFixture({ maxToolIterations: 2 });
    const { llm, agent, dir } = fixture;
    llm.script(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'one.txt', content: '1' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'two.txt', content: '2' } }] },
      { text: 'Carrying on.' },
    );

    const halted = await agent.send('Write files.');

    expect(halted.haltedAtIterationLimit).toBe(true);
    expect(llm.requests).toHaveLength(2);
    expect(await readFile(dir.join('one.txt'), 'utf8')).toBe('1');
    await expect(readFile(dir.join('two.txt'))).rejects.toThrow(/ENOENT/);
    expect(agent.context()).toMatchObject({ halted_at_iteration_limit: true, last_iteration_count: 2, max_tool_iterations: 2 });

    const next = await agent.send('Go on.');

    expect(next).toMatchObject({ content: 'Carrying on.', haltedAtIterationLimit: false });
    const fed = toolResults(sent(llm, 2));
    expect(fed.at(-1)?.content).toMatch(/^Error \(cancelled\): not run: this turn reached its limit of 2 model calls/);
    expect(agent.context().halted_at_iteration_limit).toBe(false);
  });

  it('runs turns sent at once one after another, in order', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.script({ text: 'first answer' }, { text: 'second answer' });

    const [first, second] = await Promise.all([agent.send('first'), agent.send('second')]);

    expect([first.content, second.content]).toEqual(['first answer', 'second answer']);
    const lastUserMessage = (index: number) => (sent(llm, index).body.messages as Array<{ role: string; content: unknown }>).at(-1);
    expect(lastUserMessage(0)).toMatchObject({ role: 'user', content: 'first' });
    expect(lastUserMessage(1)).toMatchObject({ role: 'user', content: 'second' });
    expect(agent.context().message_count).toBe(4);
  });

  it('refuses a blank message', async () => {
    fixture = await createFixture();
    expect(() => fixture?.agent.send('  ')).toThrow(/Expected `content` to be a non-blank string/);
  });
});
