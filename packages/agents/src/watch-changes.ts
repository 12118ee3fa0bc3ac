import type { ServerResponse } from 'node:http';
import type { PoolChange } from './pool-events.js';
import { expectGlobalWithoutParams } from './server-method-params.js';

/** What `watch` listens to: an `AgentPool`, or a runtime that emits its changes the same way. */
export interface ChangeSource {
  on(event: 'change', listener: (change: PoolChange) => void): unknown;
  off(event: 'change', listener: (change: PoolChange) => void): unknown;
}

/** Writes one server-sent event. */
export function writeEvent(response: ServerResponse, name: string, data: unknown): void {
  response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * Most bytes of changes `watch` keeps waiting for one client (beyond what the socket holds): a
 * client that reads slower than the agents change is dropped rather than buffered for without end.
 */
export const MAX_WATCH_BUFFER_BYTES = 4 * 1024 * 1024;

/** How long a dropped client has to read what was written for it before its connection is cut. */
const DROPPED_CLIENT_GRACE_MS = 30_000;

function isChangeSource(runtime: unknown): runtime is ChangeSource {
  const candidate = runtime as Partial<ChangeSource>;
  return typeof candidate.on === 'function' && typeof candidate.off === 'function';
}

/**
 * The global method `watch` (docs/console.md): answers with server-sent events — `ready` once it
 * listens, then every change of the runtime's agents, turns and approvals — until the client goes
 * or `stopping` aborts (the server closes). A client that lets more than
 * {@link MAX_WATCH_BUFFER_BYTES} wait unread gets a last `dropped` event and the stream ends: it
 * watches again and lists what it shows (after `ready`, as at the start).
 * Refuses params and an agent's path as every method does (`-32602`, `-32601`). With `visible`,
 * only the changes of the agents it admits are streamed (a person's own).
 */
export function watchChanges(
  runtime: unknown,
  params: unknown,
  agentId: string | undefined,
  response: ServerResponse,
  stopping: AbortSignal,
  visible?: (agentId: string) => boolean,
): void {
  expectGlobalWithoutParams('watch', params, agentId);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  writeEvent(response, 'ready', {});
  const stop = () => response.end();
  stopping.addEventListener('abort', stop);
  let grace: NodeJS.Timeout | undefined;
  const listener = (change: PoolChange) => {
    if (response.writableEnded || (visible && !visible(change.data.agent_id))) return;
    writeEvent(response, change.name, change.data);
    if (response.writableLength <= MAX_WATCH_BUFFER_BYTES) return;
    const message = `This client read too slowly: more than ${MAX_WATCH_BUFFER_BYTES} bytes of changes waited for it. Watch again, then list agents and approvals.`;
    writeEvent(response, 'dropped', { message });
    stop();
    grace = setTimeout(() => response.destroy(), DROPPED_CLIENT_GRACE_MS).unref();
  };
  if (isChangeSource(runtime)) runtime.on('change', listener);
  response.on('close', () => {
    clearTimeout(grace);
    stopping.removeEventListener('abort', stop);
    if (isChangeSource(runtime)) runtime.off('change', listener);
  });
}
