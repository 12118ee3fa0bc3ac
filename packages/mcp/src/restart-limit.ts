/** Restarts allowed within {@link RESTART_WINDOW_MS} before a server is given up. */
export const MAX_RESTARTS = 3;
/** The window {@link MAX_RESTARTS} counts in: 5 minutes. */
export const RESTART_WINDOW_MS = 5 * 60_000;

/**
 * Counts restarts of a server that keeps stopping: at most `maxRestarts` within any `windowMs`
 * (older restarts no longer count), so a server that crashes now and then is always brought back
 * and one that crashes at every call is given up.
 */
export class RestartLimit {
  readonly #maxRestarts: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  #restarts: number[] = [];

  constructor({ maxRestarts = MAX_RESTARTS, windowMs = RESTART_WINDOW_MS, now = Date.now } = {}) {
    this.#maxRestarts = maxRestarts;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Records a restart and returns `true` when the limit allows one now; `false` (nothing recorded) when it does not. */
  take(): boolean {
    const now = this.#now();
    this.#restarts = this.#restarts.filter((at) => now - at < this.#windowMs);
    if (this.#restarts.length >= this.#maxRestarts) return false;
    this.#restarts.push(now);
    return true;
  }
}
