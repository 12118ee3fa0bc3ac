import { queryRows, type RestateUrls, sqlText } from './restate-client.js';

/** How long a step runs before its worker asks Restate whether it was cancelled, and how often it asks again. */
const ASK_EVERY_MS = 250;

/** Restate's cancellation of an invocation, as its journal holds it: the signal of index 1 (the protocol's cancel signal). */
const CANCEL_SIGNAL = `entry_type = 'Notification: Signal' AND entry_lite_json LIKE ${sqlText('%"SignalIndex":1}%')}`;

interface RunningStep {
  readonly invocationId: string;
  readonly abort: AbortController;
  readonly startedAt: number;
}

/**
 * Restate delivers an invocation's cancellation at its next journaled step — over HTTP/1.1 (workers
 * behind a load balancer) only once the running step has ended — so a model stream or a tool's
 * process that runs meanwhile would go on to its end. While a worker runs a step longer than
 * {@link ASK_EVERY_MS}, it asks Restate's journal (one query for all its running steps) whether the
 * invocation holds a cancellation, and aborts the step's signal if it does: whichever front end (or
 * Restate's own CLI) cancelled the turn, its checks done there, and a step that ends sooner costs nothing.
 */
export class CancelWatch {
  readonly #urls: RestateUrls;
  readonly #running = new Set<RunningStep>();
  #asking = false;

  constructor(urls: RestateUrls) {
    this.#urls = urls;
  }

  /** Runs `step`, a journaled step of invocation `invocationId`; aborts `abort` if Restate cancels the invocation meanwhile. */
  async during<T>(invocationId: string, abort: AbortController, step: () => Promise<T>): Promise<T> {
    const running = { invocationId, abort, startedAt: performance.now() };
    this.#running.add(running);
    this.#askLater();
    try {
      return await step();
    } finally {
      this.#running.delete(running);
    }
  }

  #askLater(): void {
    if (this.#asking || this.#running.size === 0) return;
    this.#asking = true;
    setTimeout(async () => {
      await this.#ask();
      this.#asking = false;
      this.#askLater();
    }, ASK_EVERY_MS).unref();
  }

  async #ask(): Promise<void> {
    const due = [...this.#running].filter((running) => performance.now() - running.startedAt >= ASK_EVERY_MS);
    if (due.length === 0) return;
    const ids = [...new Set(due.map((running) => running.invocationId))];
    try {
      const rows = await queryRows<{ id: string }>(
        this.#urls,
        `SELECT DISTINCT id FROM sys_journal WHERE id IN (${ids.map(sqlText).join(', ')}) AND ${CANCEL_SIGNAL}`,
      );
      const cancelled = new Set(rows.map((row) => row.id));
      for (const running of due) if (cancelled.has(running.invocationId)) running.abort.abort();
    } catch {
      // Restate did not answer: asked again next time.
    }
  }
}
