import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, jsonSchema, type LanguageModel, streamText, type TextStreamPart, type ToolSet, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type LlmStandIn, startLlmStandIn } from './llm-stand-in.js';

// The providers print a notice for every warning; none matters here.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const API_KEY = 'sk-stand-in-secret-1234';

const tools = {
  read_file: tool({
    description: 'Reads a file.',
    inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  }),
  list_directory: tool({
    description: 'Lists a directory.',
    inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  }),
} satisfies ToolSet;

interface Dialect {
  name: string;
  api: 'openai' | 'anthropic';
  path: string;
  toolCallIdPrefix: string;
  /** The header carrying the key, and its value. */
  keyHeader: [string, string];
  model(llm: LlmStandIn): LanguageModel;
}

const DIALECTS: Dialect[] = [
  {
    name: 'openai',
    api: 'openai',
    path: '/v1/chat/completions',
    toolCallIdPrefix: 'call_',
    keyHeader: ['authorization', `Bearer ${API_KEY}`],
    model: (llm) => createOpenAI({ baseURL: llm.url, apiKey: API_KEY }).chat('gpt-4o-mini'),
  },
  {
    name: 'openai-compatible',
    api: 'openai',
    path: '/v1/chat/completions',
    toolCallIdPrefix: 'call_',
    keyHeader: ['authorization', `Bearer ${API_KEY}`],
    model: (llm) => createOpenAICompatible({ name: 'local', baseURL: llm.url, apiKey: API_KEY, includeUsage: true }).chatModel('qwen3:8b'),
  },
  {
    name: 'anthropic',
    api: 'anthropic',
    path: '/v1/messages',
    toolCallIdPrefix: 'toolu_',
    keyHeader: ['x-api-key', API_KEY],
    model: (llm) => createAnthropic({ baseURL: llm.url, apiKey: API_KEY })('claude-sonnet-4-5'),
  },
];

async function collect<T>(stream: AsyncIterable<T>, onPart?: (part: T) => void): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream) {
    parts.push(part);
    onPart?.(part);
  }
  return parts;
}

type Part = TextStreamPart<typeof tools>;
const ofType = <K extends Part['type']>(parts: Part[], type: K) =>
  parts.filter((part): part is Extract<Part, { type: K }> => part.type === type);

let llm: LlmStandIn;
beforeEach(async () => {
  llm = await startLlmStandIn();
});
afterEach(async () => {
  await llm.close();
});

describe.each(DIALECTS)('through the $name provider', (dialect) => {
  const stream = (options: { abortSignal?: AbortSignal } = {}) =>
    streamText({ model: dialect.model(llm), prompt: 'Hello?', tools, maxRetries: 0, maxOutputTokens: 1000, onError: () => {}, ...options });

  test('streams text in several pieces and records the request with its key', async () => {
    llm.script({ text: 'The file holds three lines of notes.' });
    const parts = await collect(stream().stream);

    const deltas = ofType(parts, 'text-delta').map((part) => part.text);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('The file holds three lines of notes.');
    expect(ofType(parts, 'finish')[0]?.finishReason).toBe('stop');
    expect(llm.requests).toHaveLength(1);
    const [request] = llm.requests;
    expect(request).toMatchObject({ api: dialect.api, path: dialect.path, stream: true });
    expect(request?.headers[dialect.keyHeader[0]]).toBe(dialect.keyHeader[1]);
    expect(JSON.stringify(request?.body)).toContain('Hello?');
  });

  test('streams several tool calls with their arguments in pieces', async () => {
    llm.script({
      text: 'Let me look.',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'notes/a.txt' } },
        { name: 'list_directory', arguments: { path: 'src' } },
      ],
    });
    const result = stream();
    const parts = await collect(result.stream);

    const calls = ofType(parts, 'tool-call');
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([
      ['read_file', { path: 'notes/a.txt' }],
      ['list_directory', { path: 'src' }],
    ]);
    expect(new Set(calls.map((call) => call.toolCallId)).size).toBe(2);
    for (const call of calls) {
      expect(call.toolCallId.startsWith(dialect.toolCallIdPrefix)).toBe(true);
      expect(ofType(parts, 'tool-input-delta').filter((delta) => delta.id === call.toolCallId).length).toBeGreaterThan(1);
    }
    expect(await result.text).toBe('Let me look.');
    expect(await result.finishReason).toBe('tool-calls');
  });

  test('reports the scripted usage, and an estimate when none is scripted', async () => {
    llm.script({ text: 'Done.', usage: { inputTokens: 1234, outputTokens: 56 } }, { text: 'Done again.' });

    const scripted = await stream().usage;
    expect(scripted).toMatchObject({ inputTokens: 1234, outputTokens: 56, totalTokens: 1290 });
    const estimated = await stream().usage;
    expect(estimated.inputTokens).toBeGreaterThan(0);
    expect(estimated.outputTokens).toBeGreaterThan(0);
  });

  test('sends malformed arguments as they are', async () => {
    llm.script({ toolCalls: [{ name: 'read_file', arguments: '{"path": "a.txt"' }] });
    const parts = await collect(stream().stream);

    const [call] = ofType(parts, 'tool-call');
    expect(call).toMatchObject({ toolName: 'read_file', invalid: true, input: '{"path": "a.txt"' });
  });

  test.each([
    { status: 401, message: 'Incorrect API key provided.' },
    { status: 429, message: 'Rate limit reached.', retryAfterSeconds: 7 },
    { status: 500, message: 'The server had an error.' },
  ])('answers a scripted $status in the API error shape', async ({ status, message, retryAfterSeconds }) => {
    llm.script({ error: { status, message, retryAfterSeconds } });
    const error = await generateText({ model: dialect.model(llm), prompt: 'Hello?', maxRetries: 0 }).catch((caught: unknown) => caught);

    expect(APICallError.isInstance(error)).toBe(true);
    const callError = error as APICallError;
    expect(callError.statusCode).toBe(status);
    expect(callError.message).toBe(message);
    expect(callError.isRetryable).toBe(status !== 401);
    if (retryAfterSeconds) expect(callError.responseHeaders?.['retry-after']).toBe(String(retryAfterSeconds));
  });

  test('stalls after the first piece until the client aborts', async () => {
    llm.script({ text: 'This answer never finishes.', stall: true });
    const controller = new AbortController();
    const parts = await collect(stream({ abortSignal: controller.signal }).stream, (part) => {
      if (part.type === 'text-delta') controller.abort();
    });

    expect(ofType(parts, 'text-delta').map((part) => part.text)).toEqual(['This ']);
    expect(parts.at(-1)?.type).toBe('abort');
  });

  test('a connection dropped before the response is a retryable connection error', async () => {
    llm.script({ drop: 'before-response' });
    const error = await generateText({ model: dialect.model(llm), prompt: 'Hello?', maxRetries: 0 }).catch((caught: unknown) => caught);

    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBeUndefined();
    expect((error as APICallError).isRetryable).toBe(true);
  });

  test('a connection dropped mid-stream fails the stream after the first piece', async () => {
    llm.script({ text: 'Half of this arrives.', drop: 'mid-stream' });
    const parts: Part[] = [];
    const error = await collect(stream().stream, (part) => parts.push(part)).catch((caught: unknown) => caught);

    expect(ofType(parts, 'text-delta').map((part) => part.text)).toEqual(['Half ']);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).isRetryable).toBe(true);
    expect(ofType(parts, 'finish')).toEqual([]);
  });

  test('a non-streaming answer cut mid-body is a retryable connection error', async () => {
    llm.script({ text: 'Never whole.', drop: 'mid-stream' });
    const error = await generateText({ model: dialect.model(llm), prompt: 'Hello?', maxRetries: 0 }).catch((caught: unknown) => caught);

    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).isRetryable).toBe(true);
  });

  test('answers without streaming', async () => {
    llm.script(
      { text: 'Plain answer.', usage: { inputTokens: 10, outputTokens: 3 } },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'b.txt' } }] },
    );

    const answer = await generateText({ model: dialect.model(llm), prompt: 'Hello?', tools, maxRetries: 0 });
    expect(answer.text).toBe('Plain answer.');
    expect(answer.usage).toMatchObject({ inputTokens: 10, outputTokens: 3 });
    const withCall = await generateText({ model: dialect.model(llm), prompt: 'Hello?', tools, maxRetries: 0 });
    expect(withCall.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['read_file', { path: 'b.txt' }]]);
    expect(llm.requests.map((request) => request.stream)).toEqual([false, false]);
  });

  test('a step function sees the request, and a responder answers once the queue is empty', async () => {
    llm.script((request) => ({ text: `You sent ${request.api} to ${request.path}.` }));
    llm.respondWith(() => ({ text: 'From the responder.' }));

    expect(await stream().text).toBe(`You sent ${dialect.api} to ${dialect.path}.`);
    expect(await stream().text).toBe('From the responder.');
    expect(await stream().text).toBe('From the responder.');
    expect(llm.pendingSteps).toBe(0);
  });

  test('without a scripted step it answers 500 saying so', async () => {
    const error = await generateText({ model: dialect.model(llm), prompt: 'Hello?', maxRetries: 0 }).catch((caught: unknown) => caught);

    expect((error as APICallError).statusCode).toBe(500);
    expect((error as APICallError).message).toContain('stand-in: no scripted response');
  });
});

describe('the wire format', () => {
  const json = (response: Response) => response.json() as Promise<any>;
  /** The JSON chunks of an OpenAI stream, after checking it ends in `data: [DONE]`. */
  const openAiChunks = async (response: Response): Promise<any[]> => {
    const events = (await response.text()).trim().split('\n\n');
    expect(events.at(-1)).toBe('data: [DONE]');
    return events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')));
  };
  const post = (path: string, body: unknown) =>
    fetch(`${llm.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  test('OpenAI streams chat.completion.chunk events ending in [DONE], with usage only when asked', async () => {
    llm.script({ text: 'Hi there.' }, { text: 'Hi again.' });
    const messages = [{ role: 'user', content: 'Hello?' }];

    const chunks = await openAiChunks(await post('/chat/completions', { model: 'gpt-4o', messages, stream: true }));
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'gpt-4o' && !('usage' in chunk))).toBe(true);
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });

    const withUsage = await openAiChunks(
      await post('/chat/completions', { model: 'gpt-4o', messages, stream: true, stream_options: { include_usage: true } }),
    );
    const usageChunk = withUsage.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.total_tokens).toBe(usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens);
  });

  test('Anthropic streams named events from message_start to message_stop', async () => {
    llm.script({ text: 'Hi.', toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] });
    const response = await post('/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello?' }],
      stream: true,
    });

    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const events = (await response.text()).trim().split('\n\n');
    const names = events.map((event) => event.match(/^event: (\w+)/)?.[1]);
    expect(names[0]).toBe('message_start');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(names).toContain('ping');
    for (const event of events) expect(JSON.parse(event.split('\ndata: ')[1]!).type).toBe(event.match(/^event: (\w+)/)?.[1]);
    const delta = JSON.parse(events.at(-2)!.split('\ndata: ')[1]!);
    expect(delta.delta.stop_reason).toBe('tool_use');
  });

  /** A conversation where the model called read_file, followed by `next` (the tool's result, or not). */
  const openAiCall = (next: unknown) => ({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'Read a.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
      },
      next,
    ],
  });
  const anthropicCall = (next: unknown) => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [
      { role: 'user', content: 'Read a.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} }] },
      { role: 'user', content: [next] },
    ],
  });

  test('a tool call left without its result is refused like the real APIs, without using a step', async () => {
    llm.script({ text: 'Not reached.' });
    const openAi = await post('/chat/completions', openAiCall({ role: 'user', content: 'Well?' }));
    expect(openAi.status).toBe(400);
    expect((await json(openAi)).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages.[1].role',
      message: expect.stringContaining('call_1'),
    });

    const anthropic = await post('/messages', anthropicCall({ type: 'text', text: 'Well?' }));
    expect(anthropic.status).toBe(400);
    expect(await json(anthropic)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('toolu_1') },
    });
    expect(llm.pendingSteps).toBe(1);
  });

  test('a tool result without its call is refused', async () => {
    const orphan = await post('/chat/completions', {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'tool', tool_call_id: 'call_9', content: 'x' },
      ],
    });
    expect((await json(orphan)).error.message).toContain("messages with role 'tool' must be a response");
    const anthropic = await post('/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] }],
    });
    expect((await json(anthropic)).error.message).toMatch(
      /^messages\.0\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9\./,
    );
  });

  test('tool calls answered by their results pass', async () => {
    llm.script({ text: 'One.' }, { text: 'Two.' });
    const openAi = await post('/chat/completions', openAiCall({ role: 'tool', tool_call_id: 'call_1', content: 'text of a' }));
    expect(openAi.status).toBe(200);
    expect((await json(openAi)).choices[0].message).toMatchObject({ role: 'assistant', content: 'One.' });
    const anthropic = await post('/messages', anthropicCall({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'text of a' }));
    expect(anthropic.status).toBe(200);
    expect((await json(anthropic)).content).toEqual([{ type: 'text', text: 'Two.' }]);
  });

  test('pieces arrive whole when paced', async () => {
    llm.script({ text: 'one two three four', chunkDelayMs: 5 });
    const chunks = await openAiChunks(
      await post('/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    );
    const pieces = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '');
    expect(pieces.join('')).toBe('one two three four');
  });

  test('an unknown path is a 404 and is not recorded', async () => {
    const response = await post('/embeddings', { input: 'x' });
    expect(response.status).toBe(404);
    expect(llm.requests).toEqual([]);
  });

  test('a stall without text sends the headers and the opening, then nothing until the client leaves', async () => {
    llm.script({ stall: true });
    const controller = new AbortController();
    const response = await fetch(`${llm.url}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('content_block_stop')) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended: ${received}`);
      received += new TextDecoder().decode(value);
    }

    expect(received).toContain('event: message_start');
    expect(received).not.toContain('text_delta');
    const next = reader.read();
    controller.abort();
    await expect(next).rejects.toThrow(/abort/i);
  });

  test('close ends a stalled connection', async () => {
    llm.script({ text: 'Never finished.', stallAfterChunks: 0 });
    const response = await post('/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const body = response.text();

    await llm.close();
    await expect(body).rejects.toThrow();
  });
});
