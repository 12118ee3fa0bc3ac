import { type LanguageModelUsage, type ModelMessage, streamText, type ToolSet } from 'ai';
import { inModelCallSpan } from './agent-spans.js';
import type { RequestedToolCall } from './run-tool-calls.js';

/** What one model call produced. */
export interface StepOutcome {
  readonly text: string;
  readonly toolCalls: RequestedToolCall[];
  /** Usage as the provider reported it (fields it did not report are `undefined`). */
  readonly usage: LanguageModelUsage | undefined;
  /** The signal aborted the stream. */
  readonly aborted: boolean;
}

/** One model call of a turn. */
export interface StepRequest {
  readonly model: Parameters<typeof streamText>[0]['model'];
  /** The system prompt (the AI SDK's `instructions`). */
  readonly instructions: string | undefined;
  readonly messages: ModelMessage[];
  readonly tools: ToolSet;
  readonly signal: AbortSignal;
  readonly maxOutputTokens: number | undefined;
  readonly onText: (text: string) => void;
  readonly onWarning?: (message: string) => void;
}

function describeWarning(warning: { type: string; feature?: string; details?: string; message?: string }): string {
  return warning.message ?? warning.details ?? `${warning.type}: ${warning.feature}`;
}

function parseArguments(input: unknown): Pick<RequestedToolCall, 'arguments' | 'rawArguments'> {
  if (typeof input !== 'string')
    return isObject(input) ? { arguments: input } : { arguments: undefined, rawArguments: JSON.stringify(input) };
  try {
    const parsed: unknown = JSON.parse(input);
    if (isObject(parsed)) return { arguments: parsed };
  } catch {}
  return { arguments: undefined, rawArguments: input };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Streams one model call and collects its text and tool calls; the tools have no `execute`, so
 * the AI SDK runs none. A call whose arguments do not parse (the SDK marks it `invalid`) keeps the
 * model's raw text. Errors the stream reports are thrown; an abort ends the step quietly. Runs in
 * a `chat <model>` span (`inModelCallSpan`).
 */
export function streamStep(request: StepRequest): Promise<StepOutcome> {
  const { model } = request;
  return inModelCallSpan(typeof model === 'string' ? { modelId: model, provider: 'gateway' } : model, () => streamModel(request));
}

async function streamModel(request: StepRequest): Promise<StepOutcome> {
  const { model, instructions, messages, tools, signal, maxOutputTokens, onText, onWarning } = request;
  const result = streamText({
    model,
    ...(instructions ? { instructions } : {}),
    messages,
    tools,
    abortSignal: signal,
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
    // Errors arrive as stream parts and are thrown below; the default handler would print them.
    onError: () => {},
  });
  let text = '';
  const toolCalls: RequestedToolCall[] = [];
  let usage: LanguageModelUsage | undefined;
  for await (const part of result.stream) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        onText(part.text);
        break;
      case 'tool-call':
        toolCalls.push({ id: part.toolCallId, name: part.toolName, ...parseArguments(part.input) });
        break;
      case 'start-step':
        for (const warning of part.warnings) onWarning?.(describeWarning(warning));
        break;
      case 'finish-step':
        usage = part.usage;
        break;
      case 'error':
        if (signal.aborted) return { text, toolCalls, usage, aborted: true };
        throw part.error;
      case 'abort':
        return { text, toolCalls, usage, aborted: true };
    }
  }
  return { text, toolCalls, usage, aborted: signal.aborted };
}
