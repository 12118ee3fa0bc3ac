import { type ConfirmFunction, confirmOncePerCall, type SkillContext, type SkillProgress, ToolResult } from '@nexus/core';
import type { Deadline } from './deadline-timer.js';

/** A call's time limits, in ms: without a sign of life, and at most in all (see `extendDeadline`). */
export interface CallLimits {
  timeoutMs: number;
  maxTotalMs: number;
}

/** Calls to start listening to their caller's signal at the next tick. */
let listenLater: RunningCall[] = [];

function listenNow(): void {
  const calls = listenLater;
  listenLater = [];
  for (const call of calls) call.listen();
}

/**
 * One skill call in flight: the context the skill sees, the deadline the registry's timer
 * enforces, and the listener of the caller's abort signal, in one object (the pipeline's hot path
 * allocates little). Whichever comes first — the skill's result, the deadline, the caller's
 * abort — settles {@link result}; the skill's own signal is aborted when it is stopped. The skill
 * may move the deadline later with {@link extendDeadline}, never past `maxTotalMs` from the start.
 *
 * The caller's signal is listened to from the next tick (`process.nextTick`, which runs once the
 * promise jobs queued meanwhile have run): a quick call made from a promise job, as servers make
 * them, has ended by then, and an EventTarget listener costs more than its whole way through the
 * registry. An abort before that is seen then, or when the skill returns, whichever is first.
 */
export class RunningCall implements SkillContext, Deadline {
  #at: number;
  readonly onProgress?: (progress: SkillProgress) => void;
  readonly confirm?: ConfirmFunction;
  /** Settles with the call's outcome. */
  readonly result: Promise<ToolResult>;
  readonly #name: string;
  readonly #timeoutMs: number;
  readonly #startedAt: number;
  readonly #latestAt: number;
  readonly #callerSignal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #extendDeadline: ((ms: number) => void) | undefined;
  #listening = false;
  #ended = false;
  readonly #resolve: (result: ToolResult) => void;
  readonly #reject: (error: unknown) => void;

  /**
   * `caller`: the caller's signal and the progress listener the skill gets; `confirm`: how to ask
   * the user in this call (the caller's, else the `confirm` service), asked once per approval.
   */
  constructor(name: string, { timeoutMs, maxTotalMs }: CallLimits, caller: SkillContext, confirm: ConfirmFunction | undefined) {
    const { signal: callerSignal, onProgress } = caller;
    this.#name = name;
    this.#timeoutMs = timeoutMs;
    this.#startedAt = Date.now();
    this.#at = this.#startedAt + timeoutMs;
    this.#latestAt = this.#startedAt + Math.max(timeoutMs, maxTotalMs);
    this.#callerSignal = callerSignal;
    if (onProgress) this.onProgress = onProgress;
    if (confirm) this.confirm = confirmOncePerCall(confirm);
    const { promise, resolve, reject } = Promise.withResolvers<ToolResult>();
    this.result = promise;
    this.#resolve = resolve;
    this.#reject = reject;
    if (callerSignal && listenLater.push(this) === 1) process.nextTick(listenNow);
  }

  /** Listens to the caller's signal from now on, unless the call has ended; an abort meanwhile stops it now. */
  listen(): void {
    const signal = this.#callerSignal;
    if (this.#ended || !signal) return;
    if (signal.aborted) {
      this.handleEvent();
      return;
    }
    // No `once`: the signal aborts at most once, and the call's end removes the listener anyway.
    signal.addEventListener('abort', this);
    this.#listening = true;
  }

  /** The skill's signal; its AbortController is created only when a skill asks for it or is stopped. */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  /** When the call is stopped; the registry's timer reads it again when it fires, so it may move later. */
  get at(): number {
    return this.#at;
  }

  /** A function of its own, not a method: skills destructure their context. Made on first use: most calls never extend. */
  get extendDeadline(): (ms: number) => void {
    this.#extendDeadline ??= (ms) => {
      this.#at = Math.max(this.#at, Math.min(Date.now() + ms, this.#latestAt));
    };
    return this.#extendDeadline;
  }

  /** The deadline passed. */
  expire(): void {
    const seconds = (ms: number) => `${Math.round(ms) / 1000} s`;
    const limit = this.#at - this.#startedAt;
    let detail = '';
    if (limit > this.#timeoutMs) {
      const how = this.#at === this.#latestAt ? 'the most its progress may extend it to' : 'extended while it showed progress';
      detail = ` (its time limit of ${seconds(this.#timeoutMs)}, ${how})`;
    }
    this.#stop(
      ToolResult.fail(`${this.#name} did not finish within ${seconds(limit)}${detail} and was stopped.`, 'timeout'),
      new Error(`${this.#name} timed out`),
    );
  }

  /** The caller's signal aborted (EventListener interface, so no closure is needed). */
  handleEvent(): void {
    this.#stop(ToolResult.fail(`${this.#name} was cancelled.`, 'cancelled'), this.#callerSignal?.reason);
  }

  /** The skill returned. */
  finish(value: unknown): void {
    this.#end();
    this.#resolve(ToolResult.isInstance(value) ? value : ToolResult.fail(`${this.#name} returned something other than a ToolResult.`));
  }

  /** The skill threw. */
  fail(error: unknown): void {
    this.#end();
    this.#reject(error);
  }

  /** The skill is done: stop listening, or, if the caller aborted before the listening began, cancel as its listener would have. */
  #end(): void {
    this.#ended = true;
    if (this.#listening) this.#callerSignal?.removeEventListener('abort', this);
    else if (this.#callerSignal?.aborted) this.handleEvent();
  }

  #stop(result: ToolResult, reason: unknown): void {
    (this.#controller ??= new AbortController()).abort(reason);
    this.#resolve(result);
  }
}
