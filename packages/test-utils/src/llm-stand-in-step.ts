import { randomBytes } from 'node:crypto';

/** Token counts a step reports; missing ones are estimated from the request and the output. */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A tool call the stand-in model makes. */
export interface LlmToolCall {
  name: string;
  /** Sent as JSON; a string is sent as it is (e.g. `'{"path": "a.txt"'` for malformed arguments). */
  arguments: Record<string, unknown> | string;
}

/** An answer: text, tool calls or both, streamed in pieces; optionally cut short. */
export interface LlmAnswerStep {
  text?: string;
  toolCalls?: readonly LlmToolCall[];
  usage?: Partial<LlmUsage>;
  /** Pause between streamed pieces. */
  chunkDelayMs?: number;
  /** Send the opening and the first piece, then nothing until the client goes away. */
  stall?: boolean;
  /** Send the opening and this many pieces, then nothing until the client goes away. */
  stallAfterChunks?: number;
  /** Reset the connection before answering, or after the opening and the first piece. */
  drop?: 'before-response' | 'mid-stream';
}

/** An HTTP error in the API's own error shape. */
export interface LlmErrorStep {
  error: {
    status: number;
    /** Defaults to the API's usual message for the status. */
    message?: string;
    /** Sent as the `retry-after` header. */
    retryAfterSeconds?: number;
  };
}

/** What the stand-in does with one model request. */
export type LlmStep = LlmAnswerStep | LlmErrorStep;

/** One tool call of a planned reply: its arguments text and the pieces it is streamed in. */
export interface PlannedToolCall {
  name: string;
  argumentsText: string;
  argumentPieces: string[];
}

/** A reply independent of the API dialect: what to stream, before ids and framing are added. */
export interface PlannedReply {
  text: string;
  textPieces: string[];
  toolCalls: PlannedToolCall[];
  usage: LlmUsage;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Arguments are streamed in about this many pieces, like a model emitting tokens. */
const ARGUMENT_PIECES = 4;
/** A rough characters-per-token ratio for estimated usage. */
const CHARACTERS_PER_TOKEN = 4;

export function isErrorStep(step: LlmStep): step is LlmErrorStep {
  return 'error' in step && step.error !== undefined;
}

/** An id like the APIs' own: `prefix` followed by `length` random letters and digits. */
export function randomId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

/** Splits text into word-sized pieces that join back to it exactly. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

function splitEvenly(text: string, pieces: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / CHARACTERS_PER_TOKEN));
}

/** Turns an answer step into the pieces to stream, with usage filled in from `requestBody` and the output. */
export function planReply(step: LlmAnswerStep, requestBody: Record<string, unknown>): PlannedReply {
  const text = step.text ?? '';
  const toolCalls = (step.toolCalls ?? []).map((call) => {
    const argumentsText = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    return { name: call.name, argumentsText, argumentPieces: splitEvenly(argumentsText, ARGUMENT_PIECES) };
  });
  const outputCharacters = text.length + toolCalls.reduce((sum, call) => sum + call.name.length + call.argumentsText.length, 0);
  const { messages, system, tools } = requestBody;
  const inputCharacters = JSON.stringify([system, messages, tools]).length;
  return {
    text,
    textPieces: splitWords(text),
    toolCalls,
    usage: {
      inputTokens: step.usage?.inputTokens ?? estimateTokens(inputCharacters),
      outputTokens: step.usage?.outputTokens ?? estimateTokens(outputCharacters),
    },
  };
}
