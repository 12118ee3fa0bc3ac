import type { PlannedReply } from './llm-stand-in-step.js';

/** A parsed JSON request body. */
export type LlmRequestBody = Record<string, unknown>;

/**
 * One server-sent event. A stall or a drop counts `piece` frames (text and argument pieces) and
 * never sends an `end` frame (the stop reason, usage and end-of-stream marker).
 */
export interface StreamFrame {
  data: string;
  kind: 'piece' | 'end' | 'other';
}

/** A refusal in the API's error shape, before the stand-in adds its headers. */
export interface ApiErrorResponse {
  status: number;
  body: unknown;
}

/** How one API frames requests, answers and errors. */
export interface LlmDialect {
  readonly api: 'openai' | 'anthropic';
  /** Header carrying the request id (`x-request-id`, `request-id`). */
  readonly requestIdHeader: string;
  /** A 400 the real API would give for this body before any model runs, if any. */
  findRequestError(body: LlmRequestBody): ApiErrorResponse | undefined;
  /** The API's error body for `status`, with its usual message unless one is given. */
  errorBody(status: number, message?: string): unknown;
  /** The full answer as server-sent events. */
  streamFrames(reply: PlannedReply, body: LlmRequestBody): StreamFrame[];
  /** The full answer as one JSON document (`stream` off). */
  completion(reply: PlannedReply, body: LlmRequestBody): unknown;
}

/** An SSE frame holding `payload` as JSON, with an `event:` line when the API names its events. */
export function sseData(payload: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(payload)}\n\n`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entries of `value` when it is an array, else none. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The request's model name, echoed in answers as the APIs do. */
export function modelOf(body: LlmRequestBody): string {
  return typeof body.model === 'string' ? body.model : 'stand-in-model';
}
