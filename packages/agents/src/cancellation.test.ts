import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, sent, toolResults } from '../test/agent-fixture.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('cancelling a turn', () => {
  it('mid-stream: stops the model stream, keeps what arrived, and the next turn goes on', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.script({ text: 'This answer will never be finished by the model.', stallAfterChunks: 2 }, { text: 'Fresh start.' });
    const controller = new AbortController();

    const result = await agent.send('Tell me a story.', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text') controller.abort();
      },
    });

    expect(result.cancelled).toBe(true);
    expect(result.content.length).toBeGreaterThan(0);
    expect('This answer will never be finished by the model.'.startsWith(result.content)).toBe(true);

    const next = await agent.send('Something else.');

    expect(next).toMatchObject({ content: 'Fresh start.', cancelled: false });
    const history = sent(llm, 1).body.messages as Array<{ role: string; content: unknown }>;
    expect(history.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('mid-tool: the running tool is cancelled, its call gets a "cancelled by the user" result, and the history stays valid', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.script(
      {
        toolCalls: [
          { name: 'list_directory', arguments: { path: '.' } },
          { name: 'wait_for_cancel', arguments: {} },
          { name: 'write_file', arguments: { path: 'never.txt', content: 'x' } },
        ],
      },
      { text: 'Understood.' },
    );
    const controller = new AbortController();
    const results: string[] = [];

    const result = await agent.send('Wait.', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type !== 'tool-result') return;
        results.push(`${event.name}: ${event.success ? 'ok' : event.kind}`);
        // list_directory and wait_for_cancel run at once (both read-only); the second waits until cancelled.
        if (event.name === 'list_directory') controller.abort();
      },
    });

    expect(result.cancelled).toBe(true);
    expect(results).toEqual(['list_directory: ok', 'wait_for_cancel: cancelled', 'write_file: cancelled']);

    await agent.send('Never mind.');

    const fed = toolResults(sent(llm, 1));
    expect(fed).toHaveLength(3);
    expect(fed[1]?.content).toBe('Error (cancelled): cancelled by the user');
    expect(fed[2]?.content).toBe('Error (cancelled): cancelled by the user');
  });

  it('while queued behind another turn: the conversation keeps no trace of it', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.script({ text: 'first' }, { text: 'third' });
    const controller = new AbortController();

    const first = agent.send('one');
    const second = agent.send('two', { signal: controller.signal });
    controller.abort();
    const third = agent.send('three');

    expect((await first).content).toBe('first');
    expect(await second).toMatchObject({ cancelled: true, content: '' });
    expect((await third).content).toBe('third');
    expect(agent.messages.map((message) => message.content)).toEqual([
      'one',
      [{ type: 'text', text: 'first' }],
      'three',
      [{ type: 'text', text: 'third' }],
    ]);
  });

  it('before the first model call: nothing is sent', async () => {
    fixture = await createFixture();
    const controller = new AbortController();
    controller.abort();

    const result = await fixture.agent.send('Hello?', { signal: controller.signal });

    expect(result).toMatchObject({ cancelled: true, content: '' });
    expect(fixture.llm.requests).toHaveLength(0);
  });
});
