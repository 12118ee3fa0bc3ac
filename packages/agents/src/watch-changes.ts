import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { PoolChange } from './pool-events.js';
import { checkParams } from './rpc-params.js';
import { expectGlobal } from './server-method-params.js';

/** What `watch` listens to: an `AgentPool`, or a runtime that emits its changes the same way. */
export interface ChangeSource {
  on(event: 'change', listener: (change: PoolChange) => void): unknown;
}

/** One server-sent event as written, with its `id` when it has one. */
function eventText(name: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Writes one server-sent event. */
export function writeEvent(response: ServerResponse, name: string, data: unknown): void {
  response.write(eventText(name, data));
}

/**
 * Most bytes of changes `watch` keeps waiting for one client (beyond what the socket holds): a
 * client that reads slower than the agents change is dropped rather than buffered for without end.
 */
export const MAX_WATCH_BUFFER_BYTES = 4 * 1024 * 1024;

/** How long a dropped client has to read what was written for it before its connection is cut. */
const DROPPED_CLIENT_GRACE_MS = 30_000;

/** How many of the latest changes `watch` keeps for a client that comes back (`after`), at most. */
export const WATCH_REPLAY_CHANGES = 2000;
/**
 * How many bytes of the latest changes `watch` keeps for a client that comes back, at most: half
 * of what may wait unread, so that replaying them never drops the client by itself.
 */
export const WATCH_REPLAY_BYTES = MAX_WATCH_BUFFER_BYTES / 2;

/** A change as `watch` streams it: the agent it is about, and its event, id included, as written. */
interface StreamedChange {
  readonly seq: number;
  readonly agentId: string;
  readonly event: string;
  readonly bytes: number;
}

/**
 * The changes of one runtime as `watch` streams them, numbered from 1 as they happen (event id
 * `<stream>:<seq>`), the latest kept ({@link WATCH_REPLAY_CHANGES}, {@link WATCH_REPLAY_BYTES}):
 * listened to from the first `watch` on, for as long as the runtime lives, so that a client whose
 * stream broke finds what it missed. Each change is serialized once for every client.
 */
class ChangeHistory {
  /** Names this history (a process's, since its first `watch`): a cursor of another is not resumed. */
  readonly stream = randomUUID();
  readonly #kept: StreamedChange[] = [];
  readonly #listeners = new Set<(change: StreamedChange) => void>();
  #keptBytes = 0;
  #last = 0;

  constructor(source: ChangeSource) {
    source.on('change', ({ name, data }) => {
      const seq = ++this.#last;
      const event = eventText(name, data, `${this.stream}:${seq}`);
      const change = { seq, agentId: data.agent_id, event, bytes: Buffer.byteLength(event) };
      this.#kept.push(change);
      this.#keptBytes += change.bytes;
      while (this.#kept.length > WATCH_REPLAY_CHANGES || this.#keptBytes > WATCH_REPLAY_BYTES)
        this.#keptBytes -= (this.#kept.shift() as StreamedChange).bytes;
      for (const listener of this.#listeners) listener(change);
    });
  }

  /** Calls `listener` with each change from now on; returns what stops it. */
  listen(listener: (change: StreamedChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The changes after the one `cursor` names, oldest first; `undefined` when it names none of this history's, or some are no longer kept. */
  since(cursor: string | undefined): StreamedChange[] | undefined {
    const separator = cursor?.lastIndexOf(':') ?? -1;
    if (cursor === undefined || separator < 0 || cursor.slice(0, separator) !== this.stream) return undefined;
    const seq = Number(cursor.slice(separator + 1));
    const oldest = this.#kept[0]?.seq ?? this.#last + 1;
    if (!Number.isSafeInteger(seq) || seq < oldest - 1 || seq > this.#last) return undefined;
    return this.#kept.slice(this.#kept.length - (this.#last - seq));
  }
}

const histories = new WeakMap<ChangeSource, ChangeHistory>();

function historyOf(source: ChangeSource): ChangeHistory {
  let history = histories.get(source);
  if (!history) {
    history = new ChangeHistory(source);
    histories.set(source, history);
  }
  return history;
}

function isChangeSource(runtime: unknown): runtime is ChangeSource {
  return typeof (runtime as Partial<ChangeSource>).on === 'function';
}

/** `watch`'s params: `after`, the id of the last event a client had. */
const WATCH_PARAMS = z.strictObject({ after: z.string().optional() });

/**
 * The global method `watch` (docs/console.md): answers with server-sent events — `ready` once it
 * listens, then every change of the runtime's agents, turns and approvals, each with an event id —
 * until the client goes or `stopping` aborts (the server closes). A client that comes back with
 * `after` (the id of the last event it had) gets `ready` with `resumed: true` and the changes it
 * missed first, when this process still keeps them all (the latest {@link WATCH_REPLAY_CHANGES},
 * at most {@link WATCH_REPLAY_BYTES}); otherwise `resumed: false`, and it lists what it shows, as
 * at the start. A client that lets more than {@link MAX_WATCH_BUFFER_BYTES} wait unread gets a
 * last `dropped` event and the stream ends.
 * Refuses other params and an agent's path as every method does (`-32602`, `-32601`). With
 * `visible`, only the changes of the agents it admits are streamed (a person's own).
 */
export function watchChanges(
  runtime: unknown,
  params: unknown,
  agentId: string | undefined,
  response: ServerResponse,
  stopping: AbortSignal,
  visible?: (agentId: string) => boolean,
): void {
  expectGlobal('watch', agentId);
  const { after: cursor } = checkParams('watch', WATCH_PARAMS, params);
  const history = isChangeSource(runtime) ? historyOf(runtime) : undefined;
  const missed = history?.since(cursor);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  writeEvent(response, 'ready', { resumed: missed !== undefined });
  const stop = () => response.end();
  stopping.addEventListener('abort', stop);
  let grace: NodeJS.Timeout | undefined;
  const write = ({ agentId, event }: StreamedChange) => {
    if (response.writableEnded || (visible && !visible(agentId))) return;
    response.write(event);
    if (response.writableLength <= MAX_WATCH_BUFFER_BYTES) return;
    const message = `This client read too slowly: more than ${MAX_WATCH_BUFFER_BYTES} bytes of changes waited for it. Watch again, then list agents and approvals.`;
    writeEvent(response, 'dropped', { message });
    stop();
    grace = setTimeout(() => response.destroy(), DROPPED_CLIENT_GRACE_MS).unref();
  };
  for (const change of missed ?? []) write(change);
  const stopListening = history?.listen(write);
  response.on('close', () => {
    clearTimeout(grace);
    stopping.removeEventListener('abort', stop);
    stopListening?.();
  });
}
