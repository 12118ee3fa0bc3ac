import { anthropicErrorBody } from './llm-stand-in-anthropic-error.js';
import { findAnthropicRequestError } from './llm-stand-in-anthropic-request.js';
import { type LlmDialect, type LlmRequestBody, modelOf, type StreamFrame, sseData } from './llm-stand-in-dialect.js';
import { type PlannedReply, randomId } from './llm-stand-in-step.js';

function stopReasonOf(reply: PlannedReply): string {
  return reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

/** A reply has a text block when it has text, or when it has nothing else. */
function hasTextBlock(reply: PlannedReply): boolean {
  return reply.text !== '' || reply.toolCalls.length === 0;
}

function usageOf(reply: PlannedReply, outputTokens = reply.usage.outputTokens) {
  return {
    input_tokens: reply.usage.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

function message(body: LlmRequestBody, fields: Record<string, unknown>) {
  return { id: randomId('msg_01', 22), type: 'message', role: 'assistant', model: modelOf(body), ...fields };
}

function streamFrames(reply: PlannedReply, body: LlmRequestBody): StreamFrame[] {
  const event = (kind: StreamFrame['kind'], payload: { type: string; [field: string]: unknown }): StreamFrame => ({
    kind,
    data: sseData(payload, payload.type),
  });
  const frames = [
    event('other', {
      type: 'message_start',
      message: message(body, { content: [], stop_reason: null, stop_sequence: null, usage: usageOf(reply, 1) }),
    }),
  ];
  let index = 0;
  const block = (contentBlock: Record<string, unknown>, startKind: StreamFrame['kind'], deltas: StreamFrame[]) => {
    frames.push(event(startKind, { type: 'content_block_start', index, content_block: contentBlock }));
    if (index === 0) frames.push(event('other', { type: 'ping' }));
    frames.push(...deltas, event('other', { type: 'content_block_stop', index }));
    index++;
  };
  const delta = (kind: StreamFrame['kind'], content: Record<string, unknown>) =>
    event(kind, { type: 'content_block_delta', index, delta: content });

  if (hasTextBlock(reply)) {
    block(
      { type: 'text', text: '' },
      'other',
      reply.textPieces.map((text) => delta('piece', { type: 'text_delta', text })),
    );
  }
  for (const call of reply.toolCalls) {
    block({ type: 'tool_use', id: randomId('toolu_01', 22), name: call.name, input: {} }, 'piece', [
      delta('other', { type: 'input_json_delta', partial_json: '' }),
      ...call.argumentPieces.map((partial_json) => delta('piece', { type: 'input_json_delta', partial_json })),
    ]);
  }
  frames.push(
    event('end', {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
      usage: { output_tokens: reply.usage.outputTokens },
    }),
    event('end', { type: 'message_stop' }),
  );
  return frames;
}

function parsedInput(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
}

function completion(reply: PlannedReply, body: LlmRequestBody): unknown {
  const content: unknown[] = hasTextBlock(reply) ? [{ type: 'text', text: reply.text }] : [];
  for (const call of reply.toolCalls) {
    content.push({ type: 'tool_use', id: randomId('toolu_01', 22), name: call.name, input: parsedInput(call.argumentsText) });
  }
  return message(body, { content, stop_reason: stopReasonOf(reply), stop_sequence: null, usage: usageOf(reply) });
}

/** Anthropic Messages (`POST /v1/messages`), streaming and not. */
export const anthropicDialect: LlmDialect = {
  api: 'anthropic',
  requestIdHeader: 'request-id',
  findRequestError: findAnthropicRequestError,
  errorBody: anthropicErrorBody,
  streamFrames,
  completion,
};
