import { type LlmDialect, type LlmRequestBody, modelOf, type StreamFrame, sseData } from './llm-stand-in-dialect.js';
import { openAiErrorBody } from './llm-stand-in-openai-error.js';
import { findOpenAiRequestError } from './llm-stand-in-openai-request.js';
import { type PlannedReply, randomId } from './llm-stand-in-step.js';

function usageOf(reply: PlannedReply) {
  const { inputTokens, outputTokens } = reply.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function finishReasonOf(reply: PlannedReply): string {
  return reply.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function streamFrames(reply: PlannedReply, body: LlmRequestBody): StreamFrame[] {
  const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
  const includeUsage = streamOptions?.include_usage === true;
  const envelope = {
    id: randomId('chatcmpl-', 29),
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: modelOf(body),
    service_tier: 'default',
    system_fingerprint: 'fp_stand_in',
  };
  const chunk = (choices: unknown[], usage: unknown = null) => sseData({ ...envelope, choices, ...(includeUsage ? { usage } : {}) });
  const delta = (content: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: content, logprobs: null, finish_reason: finishReason }]);

  const frames: StreamFrame[] = [
    { kind: 'other', data: delta({ role: 'assistant', content: reply.textPieces.length > 0 ? '' : null, refusal: null }) },
  ];
  for (const piece of reply.textPieces) frames.push({ kind: 'piece', data: delta({ content: piece }) });
  reply.toolCalls.forEach((call, index) => {
    const start = { index, id: randomId('call_', 24), type: 'function', function: { name: call.name, arguments: '' } };
    frames.push({ kind: 'piece', data: delta({ tool_calls: [start] }) });
    for (const piece of call.argumentPieces) {
      frames.push({ kind: 'piece', data: delta({ tool_calls: [{ index, function: { arguments: piece } }] }) });
    }
  });
  frames.push({ kind: 'end', data: delta({}, finishReasonOf(reply)) });
  if (includeUsage) frames.push({ kind: 'end', data: chunk([], usageOf(reply)) });
  frames.push({ kind: 'end', data: 'data: [DONE]\n\n' });
  return frames;
}

function completion(reply: PlannedReply, body: LlmRequestBody): unknown {
  const toolCalls = reply.toolCalls.map((call) => ({
    id: randomId('call_', 24),
    type: 'function',
    function: { name: call.name, arguments: call.argumentsText },
  }));
  return {
    id: randomId('chatcmpl-', 29),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: modelOf(body),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text === '' && toolCalls.length > 0 ? null : reply.text,
          refusal: null,
          annotations: [],
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(reply),
      },
    ],
    usage: usageOf(reply),
    service_tier: 'default',
    system_fingerprint: 'fp_stand_in',
  };
}

/** OpenAI Chat Completions (`POST /v1/chat/completions`), streaming and not. */
export const openAiDialect: LlmDialect = {
  api: 'openai',
  requestIdHeader: 'x-request-id',
  findRequestError: findOpenAiRequestError,
  errorBody: (status, message) => openAiErrorBody(status, message),
  streamFrames,
  completion,
};
