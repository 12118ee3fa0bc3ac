import type { TurnResult } from './agent.js';

/** A turn that is not over, as a caller follows it. */
export interface TurnWatch {
  /** Settles at the turn's next pause for approval or at its end (at once, while it is paused). */
  next(): Promise<TurnResult>;
  /** Settles when the turn is over. */
  end(): Promise<TurnResult>;
}

/**
 * Where one turn has got to, for whoever waits on it: {@link next} settles at the turn's next pause
 * for approval or at its end, {@link end} only at its end. A turn that throws rejects both.
 */
export class TurnProgress implements TurnWatch {
  #waiting: Array<PromiseWithResolvers<TurnResult>> = [];
  readonly #ended = Promise.withResolvers<TurnResult>();
  #settled = false;
  /** The turn's latest pause, while it lasts. */
  paused: TurnResult | undefined;

  constructor() {
    // Nobody need wait for the end; a failure is still reported to whoever does.
    this.#ended.promise.catch(() => {});
  }

  /** Settles at the next pause or the end (at once, when the turn is paused or over). */
  next(): Promise<TurnResult> {
    if (this.#settled) return this.#ended.promise;
    if (this.paused) return Promise.resolve(this.paused);
    const waiter = Promise.withResolvers<TurnResult>();
    this.#waiting.push(waiter);
    return waiter.promise;
  }

  /** Settles when the turn is over. */
  end(): Promise<TurnResult> {
    return this.#ended.promise;
  }

  /** The turn waits for a person. */
  pause(result: TurnResult): void {
    this.paused = result;
    for (const waiter of this.#waiting.splice(0)) waiter.resolve(result);
  }

  /** The turn goes on after its pause. */
  resume(): void {
    this.paused = undefined;
  }

  /** The turn is over (the first outcome counts). */
  finish(result: TurnResult): void {
    this.#settle(
      () => this.#ended.resolve(result),
      (waiter) => waiter.resolve(result),
    );
  }

  /** The turn failed. */
  fail(error: unknown): void {
    this.#settle(
      () => this.#ended.reject(error),
      (waiter) => waiter.reject(error),
    );
  }

  #settle(settleEnd: () => void, settleWaiter: (waiter: PromiseWithResolvers<TurnResult>) => void): void {
    if (this.#settled) return;
    this.#settled = true;
    this.paused = undefined;
    settleEnd();
    for (const waiter of this.#waiting.splice(0)) settleWaiter(waiter);
  }
}
