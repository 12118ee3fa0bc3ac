import { type ConfirmFunction, type SkillContext, type SkillProgress, ToolResult } from '@nexus/core';
import type { Deadline } from './deadline-timer.js';

/**
 * One skill call in flight: the context the skill sees, the deadline the registry's timer
 * enforces, and the listener of the caller's abort signal, in one object (the pipeline's hot path
 * allocates little). Whichever comes first — the skill's result, the deadline, the caller's
 * abort — settles {@link result}; the skill's own signal is aborted when it is stopped.
 */
export class RunningCall implements SkillContext, Deadline {
  readonly at: number;
  readonly onProgress?: (progress: SkillProgress) => void;
  readonly confirm?: ConfirmFunction;
  /** Settles with the call's outcome. */
  readonly result: Promise<ToolResult>;
  readonly #name: string;
  readonly #timeoutMs: number;
  readonly #callerSignal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #resolve!: (result: ToolResult) => void;
  #reject!: (error: unknown) => void;

  /** `caller`: the caller's signal, and the progress listener and way to ask that the skill gets. */
  constructor(name: string, timeoutMs: number, caller: SkillContext) {
    const { signal: callerSignal, onProgress, confirm } = caller;
    this.#name = name;
    this.#timeoutMs = timeoutMs;
    this.at = Date.now() + timeoutMs;
    this.#callerSignal = callerSignal;
    if (onProgress) this.onProgress = onProgress;
    if (confirm) this.confirm = confirm;
    this.result = new Promise<ToolResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    callerSignal?.addEventListener('abort', this, { once: true });
  }

  /** The skill's signal; its AbortController is created only when a skill asks for it or is stopped. */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  /** The deadline passed. */
  expire(): void {
    this.#stop(
      ToolResult.fail(`${this.#name} did not finish within ${this.#timeoutMs / 1000} s and was stopped.`, 'timeout'),
      new Error(`${this.#name} timed out`),
    );
  }

  /** The caller's signal aborted (EventListener interface, so no closure is needed). */
  handleEvent(): void {
    this.#stop(ToolResult.fail(`${this.#name} was cancelled.`, 'cancelled'), this.#callerSignal?.reason);
  }

  /** The skill returned. */
  finish(value: unknown): void {
    this.#callerSignal?.removeEventListener('abort', this);
    this.#resolve(ToolResult.isInstance(value) ? value : ToolResult.fail(`${this.#name} returned something other than a ToolResult.`));
  }

  /** The skill threw. */
  fail(error: unknown): void {
    this.#callerSignal?.removeEventListener('abort', this);
    this.#reject(error);
  }

  #stop(result: ToolResult, reason: unknown): void {
    (this.#controller ??= new AbortController()).abort(reason);
    this.#resolve(result);
  }
}
