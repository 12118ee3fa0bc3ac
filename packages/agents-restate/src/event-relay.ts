import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { AgentEvent } from '@nexus/agents';

/** Where a turn tells the front end waiting on its `send` what happens: that front end's sink. */
export interface EventTarget {
  /** That front end's worker endpoint (`http://host:port`), which takes the notices. */
  readonly url: string;
  /** The sink's capability: a random id only that front end and the turn know. */
  readonly token: string;
  /** Whether the `send` streams: then every event goes there, else only the pause. */
  readonly stream: boolean;
}

/** What a turn tells the front end: an event of a streaming `send`, or that it waits for approvals (in wire shape). */
type Notice = { readonly event: AgentEvent } | { readonly paused: readonly object[] };

/** What a front end does with the notices of the turn it waits on. */
export interface SinkHandlers {
  /** Each event of a streaming `send`, once. */
  onEvent?: (event: AgentEvent) => void;
  /** The turn waits for these approvals (their stored, wire shape). */
  onPaused: (approvals: readonly object[]) => void;
}

const PATH = '/nexus-events/';
/** The sinks this process holds, by token. */
const sinks = new Map<string, (notice: Notice) => void>();

/** What makes an event the same as one already passed on: a call's, a result's or an approval's id. */
function identity(event: AgentEvent): string | undefined {
  if (event.type === 'tool-call' || event.type === 'tool-result') return `${event.type} ${event.id}`;
  if (event.type === 'approval-required') return `${event.type} ${event.approval.approvalId}`;
  return undefined;
}

/**
 * Opens a sink for the turn a `send` of this front end waits on (its worker endpoint is `url`);
 * `close` once the send has answered. A turn replayed after a suspension or a crash tells its calls
 * and results again: each is passed on once.
 */
export function openEventSink(url: string, handlers: SinkHandlers): EventTarget & { close(): void } {
  const token = randomUUID();
  const seen = new Set<string>();
  sinks.set(token, (notice) => {
    if ('paused' in notice) return handlers.onPaused(notice.paused);
    const id = identity(notice.event);
    if (id !== undefined && seen.has(id)) return;
    if (id !== undefined) seen.add(id);
    handlers.onEvent?.(notice.event);
  });
  return { url, token, stream: handlers.onEvent !== undefined, close: () => sinks.delete(token) };
}

/**
 * Tells the front end waiting on a turn what happens, in order — in-process when that is this
 * process, else over HTTP to its endpoint. Best effort: a lost notice is not retried. `drained`
 * settles once every notice sent so far has arrived or failed, so the turn's answer comes after them.
 */
export function relayTo(target: EventTarget | undefined) {
  let chain = Promise.resolve();
  const send = (notice: Notice) => {
    if (!target) return chain;
    const local = sinks.get(target.token);
    if (local) {
      local(notice);
      return chain;
    }
    chain = chain.then(() =>
      fetch(new URL(`${PATH}${target.token}`, target.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(notice),
      }).then(
        (response) => void response.body?.cancel(),
        () => {},
      ),
    );
    return chain;
  };
  return {
    /** An event of the turn (sent only when the `send` streams). */
    emit(event: AgentEvent): void {
      if (target?.stream) void send({ event });
    },
    /** The turn waits for these approvals; settles once the front end has been told. */
    paused: (approvals: readonly object[]): Promise<void> => send({ paused: approvals }),
    drained: (): Promise<void> => chain,
  };
}

/** Takes a notice POSTed to this worker's endpoint for a sink it holds; `false` for any other request (Restate's). */
export function takeRelayedEvent(request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse): boolean {
  if (request.method !== 'POST' || !request.url?.startsWith(PATH)) return false;
  const sink = sinks.get(request.url.slice(PATH.length));
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', () => {
    try {
      if (sink) sink(JSON.parse(body) as Notice);
    } catch {}
    response.statusCode = sink ? 204 : 404;
    response.end();
  });
  return true;
}
