import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { anthropicDialect } from './llm-stand-in-anthropic.js';
import { isRecord, type LlmDialect, type LlmRequestBody, type StreamFrame } from './llm-stand-in-dialect.js';
import { openAiDialect } from './llm-stand-in-openai.js';
import { isErrorStep, type LlmAnswerStep, type LlmStep, planReply, randomId } from './llm-stand-in-step.js';

export type { LlmRequestBody } from './llm-stand-in-dialect.js';
export type { LlmAnswerStep, LlmErrorStep, LlmStep, LlmToolCall, LlmUsage } from './llm-stand-in-step.js';

/** A model request the stand-in received. */
export interface LlmRequestRecord {
  api: 'openai' | 'anthropic';
  /** Path as sent, e.g. `/v1/chat/completions`. */
  path: string;
  /** Headers with lower-cased names, API keys included (`authorization`, `x-api-key`). */
  headers: IncomingHttpHeaders;
  body: LlmRequestBody;
  stream: boolean;
}

/** Decides a step from the request it answers. */
export type LlmResponder = (request: LlmRequestRecord) => LlmStep | Promise<LlmStep>;

/** A running stand-in LLM server. */
export interface LlmStandIn {
  /** `http://127.0.0.1:<port>/v1`: the `baseURL` for the OpenAI, OpenAI-compatible and Anthropic providers. */
  readonly url: string;
  /** Every model request received, in order (also those refused with a 400). */
  readonly requests: LlmRequestRecord[];
  /** Scripted steps not yet used. */
  readonly pendingSteps: number;
  /** Queues steps; each model request that passes the API's checks takes the next one. */
  script(...steps: Array<LlmStep | LlmResponder>): void;
  /** Answers requests while the queue is empty (`undefined` removes it). */
  respondWith(responder: LlmResponder | undefined): void;
  /** Stops the server and ends every open connection. */
  close(): Promise<void>;
}

const ROUTES: Record<string, LlmDialect> = {
  '/v1/chat/completions': openAiDialect,
  '/v1/messages': anthropicDialect,
};
const NO_STEP = 'stand-in: no scripted response (script a step with llm.script(...) or set llm.respondWith(...))';

async function readJson(incoming: IncomingMessage): Promise<LlmRequestBody | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return isRecord(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** How many pieces to send before stalling or dropping; `undefined` sends the whole answer. */
function pieceLimit(step: LlmAnswerStep): number | undefined {
  if (step.stallAfterChunks !== undefined) return step.stallAfterChunks;
  return step.stall || step.drop === 'mid-stream' ? 1 : undefined;
}

/** A JSON answer in two pieces, so a stall or a drop can cut it in the middle like a stream. */
function jsonFrames(document: unknown): StreamFrame[] {
  const json = JSON.stringify(document);
  const middle = Math.floor(json.length / 2);
  return [
    { kind: 'piece', data: json.slice(0, middle) },
    { kind: 'piece', data: json.slice(middle) },
  ];
}

interface WriteOutcome {
  /** Whether the step's stall or drop cut the answer short. */
  cut: boolean;
  /** Settles once the last frame written has been handed to the socket. */
  flushed: Promise<unknown>;
}

/** Writes `frames`, pausing between pieces, and stops early at the step's cut. */
async function writeFrames(
  response: ServerResponse,
  frames: StreamFrame[],
  step: LlmAnswerStep,
  signal: AbortSignal,
): Promise<WriteOutcome> {
  const limit = pieceLimit(step);
  let pieces = 0;
  let flushed: Promise<unknown> = Promise.resolve();
  for (const frame of frames) {
    if (limit !== undefined && (frame.kind === 'end' || (frame.kind === 'piece' && pieces === limit))) return { cut: true, flushed };
    if (frame.kind === 'piece') {
      if (pieces > 0 && step.chunkDelayMs) await delay(step.chunkDelayMs, undefined, { signal });
      pieces++;
    }
    if (signal.aborted) break;
    flushed = new Promise((resolve) => response.write(frame.data, resolve));
  }
  return { cut: limit !== undefined, flushed };
}

async function answer(response: ServerResponse, dialect: LlmDialect, step: LlmAnswerStep, body: LlmRequestBody): Promise<void> {
  if (step.drop === 'before-response') {
    response.socket?.resetAndDestroy();
    return;
  }
  const reply = planReply(step, body);
  const stream = body.stream === true;
  const frames = stream ? dialect.streamFrames(reply, body) : jsonFrames(dialect.completion(reply, body));
  const closed = new AbortController();
  response.once('close', () => closed.abort());
  response.writeHead(200, {
    'content-type': stream ? 'text/event-stream; charset=utf-8' : 'application/json',
    'cache-control': 'no-cache',
    [dialect.requestIdHeader]: randomId('req_', 24),
  });
  response.flushHeaders();
  const { cut, flushed } = await writeFrames(response, frames, step, closed.signal).catch(() => ({ cut: false, flushed: undefined }));
  if (closed.signal.aborted) return;
  if (!cut) {
    response.end();
  } else if (step.drop === 'mid-stream') {
    // Close the connection without ending the response, once what was written has left.
    await flushed;
    response.destroy();
  } else {
    await once(closed.signal, 'abort');
  }
}

/**
 * Starts a stand-in LLM server on 127.0.0.1 (a free port) speaking OpenAI Chat Completions
 * (`POST /v1/chat/completions`, streaming and not) and Anthropic Messages (`POST /v1/messages`,
 * streaming and not) in their real wire formats, so the AI SDK providers use it unmodified.
 * Each request is answered by the next {@link LlmStandIn.script scripted} step (or the
 * {@link LlmStandIn.respondWith responder}); requests the real API would refuse before running a
 * model (a `strict` tool schema OpenAI rejects, tool parameters or an Anthropic `input_schema`
 * that is not an object root or has a top-level `anyOf` / `oneOf` / `allOf`, tool calls left
 * without results in the history) get that API's 400 instead.
 */
export async function startLlmStandIn(): Promise<LlmStandIn> {
  const requests: LlmRequestRecord[] = [];
  const queue: Array<LlmStep | LlmResponder> = [];
  let responder: LlmResponder | undefined;

  const nextStep = async (request: LlmRequestRecord): Promise<LlmStep | undefined> => {
    const scripted = queue.shift() ?? responder;
    return typeof scripted === 'function' ? scripted(request) : scripted;
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (incoming.url ?? '/').split('?')[0] as string;
    const dialect = incoming.method === 'POST' ? ROUTES[path] : undefined;
    if (!dialect) {
      sendJson(response, 404, {
        error: {
          message: `Unknown request URL: ${incoming.method} ${path}.`,
          type: 'invalid_request_error',
          param: null,
          code: 'unknown_url',
        },
      });
      return;
    }
    const fail = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      sendJson(response, status, body, { [dialect.requestIdHeader]: randomId('req_', 24), ...headers });
    const body = await readJson(incoming);
    if (!body) {
      fail(400, dialect.errorBody(400, 'We could not parse the JSON body of your request.'));
      return;
    }
    const request: LlmRequestRecord = { api: dialect.api, path, headers: incoming.headers, body, stream: body.stream === true };
    requests.push(request);
    const refusal = dialect.findRequestError(body);
    if (refusal) {
      fail(refusal.status, refusal.body);
      return;
    }
    const step = await nextStep(request).catch(
      (error: unknown): LlmStep => ({ error: { status: 500, message: `stand-in: the scripted step threw ${String(error)}` } }),
    );
    if (!step) {
      fail(500, dialect.errorBody(500, NO_STEP));
    } else if (isErrorStep(step)) {
      const { status, message, retryAfterSeconds } = step.error;
      fail(status, dialect.errorBody(status, message), retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
    } else {
      await answer(response, dialect, step, body);
    }
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: { message: `stand-in: ${String(error)}`, type: 'server_error', param: null, code: null } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get pendingSteps() {
      return queue.length;
    },
    script(...steps) {
      queue.push(...steps);
    },
    respondWith(next) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
