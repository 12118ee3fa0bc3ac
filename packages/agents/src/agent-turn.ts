import type { ConfirmationRequest, ConfirmFunction } from '@nexus/core';
import type { AgentEvent, ToolCallRecord, TurnResult } from './agent.js';
import { emptyUsage, type TurnUsage } from './agent-usage.js';
import type { PendingApproval, TakenDecision } from './approvals.js';
import type { RequestedToolCall, ToolCallOutcome } from './run-tool-calls.js';
import type { TurnProgress } from './turn-progress.js';

/** A turn that waits for a person, as its agent's session keeps it (specs/agent-server.md §8). */
export interface PausedTurn {
  readonly requestId: string;
  /** Model calls made so far. */
  readonly iteration: number;
  readonly usage: TurnUsage;
  readonly toolCalls: readonly ToolCallRecord[];
  /** The text of the step that called the tools. */
  readonly text: string;
  /** That step's calls, in the model's order. */
  readonly calls: readonly RequestedToolCall[];
  /** The outcomes of those that ran. */
  readonly outcomes: readonly ToolCallOutcome[];
  readonly approvals: readonly PendingApproval[];
  /** Confirmations already approved for calls of the step, by call id (a call may ask more than one). */
  readonly granted: Readonly<Record<string, readonly ConfirmationRequest[]>>;
}

/** The durable state of an agent's current turn: running, or paused for approval. */
export type TurnState =
  | { readonly status: 'running'; readonly requestId: string }
  | ({ readonly status: 'awaiting_approval' } & PausedTurn);

/** How a turn is run. */
export interface TurnSetup {
  readonly requestId: string;
  readonly signal: AbortSignal;
  readonly onEvent: (event: AgentEvent) => void;
  /** Who answers confirmations at once; without one, the turn pauses for approval. */
  readonly asker: ConfirmFunction | undefined;
}

/** The model step whose tool calls are being run. */
interface OpenStep {
  readonly calls: readonly RequestedToolCall[];
  readonly outcomes: ToolCallOutcome[];
}

/**
 * The state of the turn an agent is running: what it has used and called, the step whose tools
 * run, and the approvals it waits for — all a saved session needs to continue it after a restart.
 */
export class ActiveTurn {
  readonly requestId: string;
  readonly signal: AbortSignal;
  readonly onEvent: (event: AgentEvent) => void;
  readonly asker: ConfirmFunction | undefined;
  readonly progress: TurnProgress;
  iteration = 0;
  usage: TurnUsage = emptyUsage();
  toolCalls: ToolCallRecord[] = [];
  text = '';
  step: OpenStep | undefined;
  approvals: PendingApproval[] = [];
  readonly granted = new Map<string, ConfirmationRequest[]>();
  readonly #decisions = new Map<string, TakenDecision>();
  #wake: (() => void) | undefined;

  constructor(setup: TurnSetup, progress: TurnProgress, saved?: PausedTurn) {
    this.requestId = setup.requestId;
    this.signal = setup.signal;
    this.onEvent = setup.onEvent;
    this.asker = setup.asker;
    this.progress = progress;
    if (saved) {
      this.iteration = saved.iteration;
      this.usage = { ...saved.usage };
      this.toolCalls = saved.toolCalls.map((record) => ({ ...record }));
      this.text = saved.text;
      this.step = { calls: saved.calls, outcomes: [...saved.outcomes] };
      this.approvals = [...saved.approvals];
      for (const [id, requests] of Object.entries(saved.granted)) this.granted.set(id, [...requests]);
    }
  }

  /** What a saved session keeps of the turn. */
  get state(): TurnState {
    if (this.approvals.length === 0 || !this.step) return { status: 'running', requestId: this.requestId };
    return {
      status: 'awaiting_approval',
      requestId: this.requestId,
      iteration: this.iteration,
      usage: this.usage,
      toolCalls: this.toolCalls,
      text: this.text,
      calls: this.step.calls,
      outcomes: this.step.outcomes,
      approvals: this.approvals,
      granted: Object.fromEntries(this.granted),
    };
  }

  /** The turn's outcome as {@link Agent.send} reports it. */
  result(status: TurnResult['status'], options: { halted?: boolean } = {}): TurnResult {
    return {
      status,
      content: this.text,
      requestId: this.requestId,
      haltedAtIterationLimit: options.halted ?? false,
      cancelled: status === 'cancelled',
      usage: this.usage,
      toolCalls: this.toolCalls,
      approvals: status === 'awaiting_approval' ? this.waiting : [],
    };
  }

  /** The approvals of the pause that are not decided yet. */
  get waiting(): PendingApproval[] {
    return this.approvals.filter((approval) => !this.#decisions.has(approval.approvalId));
  }

  /** An approval of this turn that is not decided yet. */
  undecided(approvalId: string): PendingApproval | undefined {
    return this.waiting.find((approval) => approval.approvalId === approvalId);
  }

  /** Takes a decision; once every approval has one, the pause is over and the turn goes on. */
  decide(taken: TakenDecision): void {
    this.#decisions.set(taken.approval.approvalId, taken);
    if (!this.#allDecided()) return;
    this.progress.resume();
    this.#wake?.();
  }

  /** Waits until every approval is decided (their decisions, in order), or the turn is cancelled (`undefined`). */
  async decisions(): Promise<TakenDecision[] | undefined> {
    if (!this.#allDecided() && !this.signal.aborted) {
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#wake = resolve;
      this.signal.addEventListener('abort', () => resolve(), { once: true });
      await promise;
      this.#wake = undefined;
    }
    if (this.signal.aborted) return undefined;
    const taken = this.approvals.map((approval) => this.#decisions.get(approval.approvalId) as TakenDecision);
    this.#decisions.clear();
    this.approvals = [];
    return taken;
  }

  #allDecided(): boolean {
    return this.approvals.every((approval) => this.#decisions.has(approval.approvalId));
  }
}
