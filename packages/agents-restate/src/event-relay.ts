import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { AgentEvent } from '@nexus/agents';

/** Where a streaming `send`'s events go: the front end holding the client's stream. */
export interface EventTarget {
  /** That front end's worker endpoint (`http://host:port`), which takes the events. */
  readonly url: string;
  /** The stream's capability: a random id only that front end and the turn know. */
  readonly token: string;
}

const PATH = '/nexus-events/';
/** The streams this process holds, by token. */
const sinks = new Map<string, (event: AgentEvent) => void>();

/** What makes an event the same as one already passed on: a call's, a result's or an approval's id. */
function identity(event: AgentEvent): string | undefined {
  if (event.type === 'tool-call' || event.type === 'tool-result') return `${event.type} ${event.id}`;
  if (event.type === 'approval-required') return `${event.type} ${event.approval.approvalId}`;
  return undefined;
}

/**
 * Opens a stream for a streaming `send` held by the front end whose endpoint is `url`; `close`
 * when the send has answered. A turn replayed after a suspension or a crash tells its calls and
 * results again: each is passed on once.
 */
export function openEventSink(url: string, onEvent: (event: AgentEvent) => void): EventTarget & { close(): void } {
  const token = randomUUID();
  const seen = new Set<string>();
  sinks.set(token, (event) => {
    const id = identity(event);
    if (id !== undefined && seen.has(id)) return;
    if (id !== undefined) seen.add(id);
    onEvent(event);
  });
  return { url, token, close: () => sinks.delete(token) };
}

/**
 * Sends a turn's events, in order, to the front end holding its stream — in-process when that is
 * this process, else over HTTP to its endpoint. Best effort: a lost event is not retried (a
 * replayed step is not streamed again); `drained` settles once every event sent so far has arrived
 * or failed, so the turn's answer comes after them.
 */
export function relayTo(target: EventTarget | undefined): { emit(event: AgentEvent): void; drained(): Promise<void> } {
  let chain = Promise.resolve();
  return {
    emit(event) {
      if (!target) return;
      const local = sinks.get(target.token);
      if (local) return local(event);
      chain = chain.then(() =>
        fetch(new URL(`${PATH}${target.token}`, target.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(event),
        }).then(
          (response) => void response.body?.cancel(),
          () => {},
        ),
      );
    },
    drained: () => chain,
  };
}

/** Takes an event POSTed to this worker's endpoint for a stream it holds; `false` for any other request (Restate's). */
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
      if (sink) sink(JSON.parse(body) as AgentEvent);
    } catch {}
    response.statusCode = sink ? 204 : 404;
    response.end();
  });
  return true;
}
