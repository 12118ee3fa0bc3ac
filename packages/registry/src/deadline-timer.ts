/** Something with a time limit: `expire` is called once `Date.now()` reaches `at` (which may move later, never earlier). */
export interface Deadline {
  readonly at: number;
  expire(): void;
}

/**
 * Time limits for many concurrent calls on one timer. Arming and clearing a Node timer per call
 * costs more than the rest of the pipeline, so calls register a deadline here instead; the
 * single timer is re-armed only when a new deadline is earlier than the armed one. The timer is
 * unref'd: it never keeps a process alive by itself — the work it limits does.
 */
export class DeadlineTimer {
  readonly #pending = new Set<Deadline>();
  #timer: NodeJS.Timeout | undefined;
  #armedAt = Number.POSITIVE_INFINITY;
  #stopWhenIdle = false;

  /** Calls `deadline.expire()` at `deadline.at` unless it is cancelled first. */
  add(deadline: Deadline): void {
    this.#pending.add(deadline);
    if (deadline.at < this.#armedAt) this.#arm(deadline.at);
  }

  cancel(deadline: Deadline): void {
    this.#pending.delete(deadline);
    if (this.#stopWhenIdle && this.#pending.size === 0) this.#disarm();
  }

  /**
   * From now on, clears the timer whenever no deadline is pending, instead of leaving it armed for
   * a deadline already cancelled (its owner is done: deadlines still pending keep their limit).
   */
  stopWhenIdle(): void {
    this.#stopWhenIdle = true;
    if (this.#pending.size === 0) this.#disarm();
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - Date.now()));
    this.#timer.unref();
  }

  #fire(): void {
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const deadline of this.#pending) {
      if (deadline.at <= now) {
        this.#pending.delete(deadline);
        deadline.expire();
      } else if (deadline.at < next) next = deadline.at;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}
