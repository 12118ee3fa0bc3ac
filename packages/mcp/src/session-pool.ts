/** What a {@link SessionPool} ends when it drops a session. */
export interface Closable {
  close(): Promise<void>;
}

/** A JSON-RPC request id. */
export type CallId = string | number;

interface Entry<Session> {
  readonly session: Session;
  /** When the session last had a request arrive or a call end (a monotonic clock, in ms). */
  lastActive: number;
  /** Calls in flight, each with the mark of the {@link SessionPool.begin} that started it. */
  readonly calls: Map<CallId, symbol>;
}

/** Options of {@link SessionPool}. */
export interface SessionPoolOptions {
  /** How long a session may go without a request before it is closed, in milliseconds. */
  idleTimeoutMs: number;
  /** The clock, in milliseconds (default `performance.now`, which never goes backwards). */
  now?: () => number;
}

/** Longest delay `setTimeout` takes; a later expiry is reached by waking up and sleeping again. */
const MAX_TIMER_DELAY = 2 ** 31 - 1;

/**
 * The open sessions of a server, by id. A session is idle while none of its calls is in
 * flight; one idle for `idleTimeoutMs` is closed, and when the server is full the longest idle
 * one can be evicted. One unref'd timer serves every session: it is set for the earliest expiry,
 * which a new or newly idle session never precedes, and sessions are also checked on look-up,
 * so a late timer never lets an expired session answer.
 */
export class SessionPool<Session extends Closable> {
  readonly #entries = new Map<string, Entry<Session>>();
  readonly #idleTimeoutMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;

  constructor({ idleTimeoutMs, now = () => performance.now() }: SessionPoolOptions) {
    this.#idleTimeoutMs = idleTimeoutMs;
    this.#now = now;
  }

  /** Sessions open (including ones still initializing). */
  get size(): number {
    return this.#entries.size;
  }

  /** Adds a session, active now. */
  add(id: string, session: Session): void {
    const entry = { session, lastActive: this.#now(), calls: new Map<CallId, symbol>() };
    this.#entries.set(id, entry);
    this.#wakeAt(entry.lastActive + this.#idleTimeoutMs);
  }

  /** The open session `id`; `undefined` when there is none or it has just expired (it is closed then). */
  get(id: string): Session | undefined {
    const entry = this.#entries.get(id);
    if (!entry || !this.#hasExpired(entry, this.#now())) return entry?.session;
    void this.#close(id);
    return undefined;
  }

  /** Forgets a session that closed itself (the client ended it); does not close it. */
  delete(id: string): void {
    this.#entries.delete(id);
  }

  /** Notes a request on session `id`: it is active now. */
  touch(id: string): void {
    const entry = this.#entries.get(id);
    if (entry) entry.lastActive = this.#now();
  }

  /**
   * Notes call `callId` on session `id` as in flight: the session is not idle until the call
   * ends, through the returned function (its answer was sent, or the client went away) or
   * through {@link end}. The returned function ends this call only, not a later one reusing the id.
   */
  begin(id: string, callId: CallId): () => void {
    const entry = this.#entries.get(id);
    const mark = Symbol(String(callId));
    entry?.calls.set(callId, mark);
    this.touch(id);
    return () => {
      if (entry?.calls.get(callId) === mark) this.end(id, callId);
    };
  }

  /** Ends call `callId` on session `id` (a cancelled call, which is never answered). */
  end(id: string, callId: CallId): void {
    const entry = this.#entries.get(id);
    if (!entry?.calls.delete(callId)) return;
    entry.lastActive = this.#now();
    if (entry.calls.size === 0) this.#wakeAt(entry.lastActive + this.#idleTimeoutMs);
  }

  /** Closes the session idle the longest; `false` when every session has a call in flight. */
  evictLongestIdle(): boolean {
    let oldest: [string, Entry<Session>] | undefined;
    for (const candidate of this.#entries) {
      if (candidate[1].calls.size === 0 && (!oldest || candidate[1].lastActive < oldest[1].lastActive)) oldest = candidate;
    }
    if (oldest) void this.#close(oldest[0]);
    return oldest !== undefined;
  }

  /** Closes every session and stops the timer. */
  async closeAll(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.all([...this.#entries.keys()].map((id) => this.#close(id)));
  }

  #hasExpired(entry: Entry<Session>, now: number): boolean {
    return entry.calls.size === 0 && entry.lastActive + this.#idleTimeoutMs <= now;
  }

  /** Drops the session at once, so its id is unknown from here on, and closes it. */
  async #close(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    this.#entries.delete(id);
    // A session that fails to close is out of the pool all the same; nobody is waiting to hear it.
    await entry?.session.close().catch(() => {});
  }

  #wakeAt(time: number): void {
    if (this.#timer !== undefined) return;
    const delay = Math.min(Math.max(time - this.#now(), 0), MAX_TIMER_DELAY);
    this.#timer = setTimeout(() => this.#sweep(), delay).unref();
  }

  /** Closes the expired sessions and sets the timer for the next expiry, if any. */
  #sweep(): void {
    this.#timer = undefined;
    const now = this.#now();
    let next = Number.POSITIVE_INFINITY;
    for (const [id, entry] of this.#entries) {
      if (this.#hasExpired(entry, now)) void this.#close(id);
      else if (entry.calls.size === 0) next = Math.min(next, entry.lastActive + this.#idleTimeoutMs);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#wakeAt(next);
  }
}
