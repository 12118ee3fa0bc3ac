import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, sent, testFamily } from '../test/agent-fixture.js';
import { findSplit } from './compaction.js';
import { TokenCounter } from './token-counter.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const LONG_ANSWER = Array.from({ length: 500 }, (_, index) => `fact${index}`).join(' ');

/** Every tool result follows the assistant message that made its calls. */
function expectToolPairsIntact(messages: readonly ModelMessage[]): void {
  messages.forEach((message, index) => {
    if (message.role !== 'tool') return;
    const previous = messages[index - 1];
    expect(previous?.role).toBe('assistant');
    const calls = Array.isArray(previous?.content)
      ? previous.content.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId)
      : [];
    expect(message.content.map((part) => (part.type === 'tool-result' ? part.toolCallId : ''))).toEqual(calls);
  });
}

async function conversationWithTools(current: Fixture): Promise<void> {
  const { llm, agent } = current;
  llm.script(
    { toolCalls: [{ name: 'record', arguments: { label: 'a', delayMs: 0 } }] },
    { text: 'First answer.' },
    { toolCalls: [{ name: 'record', arguments: { label: 'b', delayMs: 0 } }] },
    { text: LONG_ANSWER },
  );
  await agent.send('First task.');
  await agent.send('Second task.');
}

describe('compaction', () => {
  it('summarises older messages when the context passes compactAt, keeping recent ones and every tool call with its result', async () => {
    fixture = await createFixture({ families: [testFamily], contextWindow: 2000, compactAt: 0.5 });
    const { llm, agent, events } = fixture;
    await conversationWithTools(fixture);
    const before = await agent.tokens();
    expect(before.total).toBeGreaterThan(1000);
    llm.script({ text: 'The user asked for two tasks; both were recorded.' }, { text: 'Third answer.' });

    const result = await agent.send('Third task.', { onEvent: (event) => events.push(event) });

    expect(result.content).toBe('Third answer.');
    const summaryRequest = llm.requests.at(-2);
    expect(summaryRequest?.body.tools).toBeUndefined();
    expect(JSON.stringify(summaryRequest?.body.messages)).toContain('fact499');
    const compacted = events.find((event) => event.type === 'compacted');
    expect(compacted).toMatchObject({ tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) });
    if (compacted?.type === 'compacted') expect(compacted.tokensAfter).toBeLessThan(compacted.tokensBefore);
    const [first] = agent.messages;
    expect(first).toMatchObject({ role: 'user', content: expect.stringContaining('both were recorded') });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant' });
    expectToolPairsIntact(agent.messages);
    expect(JSON.stringify(sent(llm, -1).body.messages)).not.toContain('fact499');
    expect((await agent.tokens()).total).toBeLessThan(1000);
  });

  it('compact({ force }) compacts on demand; without force it waits for the threshold', async () => {
    fixture = await createFixture({ families: [testFamily], contextWindow: 100_000 });
    const { llm, agent } = fixture;
    await conversationWithTools(fixture);

    expect(await agent.compact({ force: false })).toEqual({ compacted: false, reason: 'the context is below the compaction threshold' });

    llm.script({ text: 'Short summary.' });
    const result = await agent.compact({ force: true });

    expect(result).toMatchObject({ compacted: true });
    if (result.compacted) expect(result.tokensSaved).toBe(result.tokensBefore - result.tokensAfter);
    expectToolPairsIntact(agent.messages);
  });

  it('has nothing to compact in an empty conversation', async () => {
    fixture = await createFixture({ families: [testFamily] });
    expect(await fixture.agent.compact()).toEqual({ compacted: false, reason: 'nothing to compact' });
    expect(fixture.llm.requests).toHaveLength(0);
  });
});

describe('tokens() and context()', () => {
  it('account for the system prompt, the tool definitions and the messages', async () => {
    fixture = await createFixture({ families: [testFamily], contextWindow: 50_000 });
    const { llm, agent } = fixture;
    const empty = await agent.tokens();
    expect(empty.messages).toBe(0);
    expect(empty.system).toBeGreaterThan(0);
    expect(empty.tools).toBeGreaterThan(0);

    llm.script({ text: LONG_ANSWER });
    await agent.send('Tell me facts.');
    const report = await agent.tokens();

    expect(report.messages).toBeGreaterThan(300);
    expect(report.total).toBe(report.system + report.tools + report.messages);
    expect(report.budget).toBe(50_000);
    expect(report.available).toBe(report.budget - report.system - report.tools);
    expect(report.remaining).toBe(report.budget - report.total);
    expect(agent.context()).toEqual({
      message_count: 2,
      system_prompt: 'You are a careful assistant.',
      halted_at_iteration_limit: false,
      last_iteration_count: 1,
      max_tool_iterations: 100,
    });
  });
});

describe('findSplit', () => {
  const call = (id: string): ModelMessage => ({
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'record', input: { label: id } }],
  });
  const result = (id: string, text: string): ModelMessage => ({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'record', output: { type: 'text', value: text } }],
  });
  const messages: ModelMessage[] = [
    { role: 'user', content: 'one' },
    call('a'),
    result('a', 'short'),
    { role: 'assistant', content: 'done a' },
    { role: 'user', content: 'two' },
    call('b'),
    result('b', LONG_ANSWER),
    { role: 'assistant', content: 'done b' },
  ];

  it('never starts the kept part at a tool result: the call goes with it', async () => {
    const counter = await TokenCounter.load();

    // Room for the result and what follows it, not for its call: the call's turn goes too.
    expect(await findSplit(messages, (await counter.messages(messages.slice(6))) + 1, counter)).toBe(7);
    // Room for the call as well: both are kept.
    expect(await findSplit(messages, await counter.messages(messages.slice(5)), counter)).toBe(5);
  });

  it('keeps at least the last message when even that is over the budget, and leaves something to summarise', async () => {
    const counter = await TokenCounter.load();
    expect(await findSplit(messages, 1, counter)).toBe(7);
    expect(await findSplit(messages.slice(0, 1), 1_000_000, counter)).toBeUndefined();
    expect(await findSplit(messages, 1_000_000, counter)).toBe(1);
  });
});
