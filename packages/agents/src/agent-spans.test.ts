import { spanRecorder } from '@nexus/test-utils/spans';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../test/agent-fixture.js';

const recorder = spanRecorder();
const { exporter } = recorder;
beforeAll(recorder.start);
afterAll(recorder.stop);

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  exporter.reset();
});

describe('the spans of a turn', () => {
  it('a turn is invoke_agent; each model call a chat span under it, and so is each tool call', async () => {
    fixture = await createFixture({ files: { 'notes.md': 'hello' }, caller: { agentId: 'helper', ancestry: ['boss'] } });
    fixture.llm.script(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }], usage: { inputTokens: 12, outputTokens: 3 } },
      { text: 'Read.' },
    );

    const result = await fixture.agent.send('read the notes');
    await recorder.flush();

    const spans = exporter.getFinishedSpans();
    const turn = spans.find((span) => span.name === 'invoke_agent helper');
    const chats = spans.filter((span) => span.name === 'chat test-model');
    const tool = spans.find((span) => span.name === 'execute_tool read_file');
    expect(turn?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': 'helper',
      'gen_ai.request.model': 'test-model',
      'nexus.agent.ancestry': ['boss'],
      'nexus.request_id': result.requestId,
      'nexus.turn.status': 'completed',
    });
    expect(chats).toHaveLength(2);
    expect(chats[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'test-model',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(tool?.attributes['gen_ai.tool.call.id']).toBe(result.toolCalls[0]?.id);
    for (const span of [...chats, tool]) expect(span?.parentSpanContext?.spanId).toBe(turn?.spanContext().spanId);
  });
});
