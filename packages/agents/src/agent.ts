import { randomUUID } from 'node:crypto';
import { type ConfirmFunction, expectOption, InvalidOptionError, isPositiveNumber, policyDigest, type ToolErrorKind } from '@nexus/core';
import type { CallerIdentity, SkillRegistry } from '@nexus/registry';
import type { LanguageModelUsage, ModelMessage, ToolModelMessage } from 'ai';
import { inTurnSpan } from './agent-spans.js';
import { ActiveTurn, type PausedTurn, type TurnSetup, type TurnState } from './agent-turn.js';
import { addUsage, emptyUsage, type TurnUsage, usageOf } from './agent-usage.js';
import {
  type ApprovalDecision,
  type ApprovalStatus,
  approvalFor,
  decidedOutcome,
  type PendingApproval,
  pausingConfirm,
  type RememberedApproval,
  rememberedFrom,
} from './approvals.js';
import { findSplit, KEEP_SHARE, summarize } from './compaction.js';
import { toProviderError } from './provider-error.js';
import type { ResolvedModel } from './resolve-model.js';
import { failedOutcome, type RequestedToolCall, runToolCalls, type ToolCallOutcome } from './run-tool-calls.js';
import { streamStep } from './stream-step.js';
import { TokenCounter } from './token-counter.js';
import { type TurnTools, turnTools } from './tool-set.js';
import { TurnProgress, type TurnWatch } from './turn-progress.js';

export type { TurnUsage } from './agent-usage.js';

/** Model calls a turn may make when the agent does not say (the seeds' `max_tool_iterations`). */
export const DEFAULT_MAX_TOOL_ITERATIONS = 100;
/** Share of the context window past which older messages are compacted. */
export const DEFAULT_COMPACT_AT = 0.9;

/** How an {@link Agent} is made. */
export interface AgentOptions {
  /** The model (see `resolveModel`). */
  model: ResolvedModel;
  /** The tools: every call goes through `registry.execute`, under the registry's policy. */
  registry: SkillRegistry;
  systemPrompt?: string;
  /** Most model calls in one turn (default {@link DEFAULT_MAX_TOOL_ITERATIONS}). */
  maxToolIterations?: number;
  /** Time limit of each tool call, in ms (default: the registry's). */
  toolTimeoutMs?: number;
  /** Share of the context window past which older messages are compacted (default {@link DEFAULT_COMPACT_AT}). */
  compactAt?: number;
  /**
   * Asked when a tool call needs approval. Without it (and without a `confirm` service in the
   * registry's services or one given to `send`), the turn pauses at such a call and waits for
   * {@link Agent.resolveApproval}.
   */
  confirm?: ConfirmFunction;
  /** A conversation to continue. */
  messages?: readonly ModelMessage[];
  /** Approvals remembered earlier (`remember: true`), e.g. from a saved session. */
  rememberedApprovals?: readonly RememberedApproval[];
  /**
   * Called, and awaited, whenever what a saved session must hold changes: a turn starts, pauses
   * for approval, goes on, or ends (`result` absent when it failed). Save the agent here
   * (`messages`, `turnState`, `rememberedApprovals`) and a crash loses nothing a person was told.
   */
  onCheckpoint?: (checkpoint: TurnCheckpoint) => Promise<void> | void;
  /**
   * Runs each model step and each tool call of a turn (default: runs it). A durable-execution
   * engine records the answer under `name` and, when a turn is run again after a crash, answers
   * from its record instead of running the step again — so a finished tool call is not repeated.
   */
  journal?: TurnJournal;
  /**
   * Who this agent is, as the audit log and traces name the caller of its tool calls (`agentId`,
   * `ancestry`); the agent pool sets it. Without it, calls name no caller.
   */
  caller?: CallerIdentity;
}

/**
 * Runs one step of a turn, named `<request id> model step <n>`, `<request id> tool call <call id>`
 * or `<request id> approval ids <call ids>` (the same names when the turn is run again); its answer
 * must survive a JSON round trip. `step` says what running it again would do.
 */
export type TurnJournal = <T>(name: string, run: () => Promise<T>, step: TurnStep) => Promise<T>;

/** What a journaled step is, beside its name. */
export interface TurnStep {
  /**
   * Running it again (after a crash, perhaps to another answer) changes nothing outside the turn:
   * a model step, or a call of a read-only skill. A journal may run such a step before the steps
   * ahead of it are durable; a call of any other skill, or the approval ids a person will be told,
   * is `false`.
   */
  readonly readOnly: boolean;
  /**
   * A model call, one of the tool calls a model call asked (the calls after a model step, up to the
   * next, are its calls), or the approval ids of a pause. A journal may keep a model step's
   * read-only calls with it: a crash then asks the model again and runs them again.
   */
  readonly kind: 'model step' | 'tool call' | 'approval ids';
}

/** The journal of an agent without one: every step runs. */
const runEveryStep: TurnJournal = (_name, run) => run();

/** A change {@link AgentOptions.onCheckpoint} is told of. */
export type TurnCheckpoint =
  | { readonly type: 'running' | 'awaiting_approval'; readonly requestId: string }
  | { readonly type: 'ended'; readonly requestId: string; readonly result?: TurnResult };

/** A tool call of a turn, as `nexus run --json` lists it. */
export interface ToolCallRecord {
  id: string;
  name: string;
  /** The parsed arguments, or the model's raw text when it was not a JSON object. */
  arguments: Record<string, unknown> | string;
  success: boolean;
  kind?: ToolErrorKind;
}

/** What happens during a turn, as it happens. */
export type AgentEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; id: string; name: string; arguments: Record<string, unknown> | string }
  | { type: 'tool-result'; id: string; name: string; success: boolean; kind?: ToolErrorKind; output: string }
  | { type: 'usage'; usage: TurnUsage }
  | { type: 'compacted'; tokensBefore: number; tokensAfter: number }
  /** The turn pauses: this call waits for a person ({@link Agent.resolveApproval}). */
  | { type: 'approval-required'; approval: PendingApproval }
  /** The provider package's warnings (an unsupported setting, a compatibility mode), which the AI SDK would print. */
  | { type: 'warning'; message: string };

/** Options of {@link Agent.send}. */
export interface SendOptions {
  /** Cancels the turn: the model stream and every running tool. */
  signal?: AbortSignal;
  /** Names the turn (default: a random id). */
  requestId?: string;
  onEvent?: (event: AgentEvent) => void;
  /** Who approves this turn's tool calls (default: the agent's `confirm`, else the `confirm` service, else the turn pauses). */
  confirm?: ConfirmFunction;
}

/** The outcome of a turn, or of its part up to a pause. */
export interface TurnResult {
  /** `awaiting_approval`: the turn waits at the calls in `approvals`; it goes on once each is resolved. */
  status: 'completed' | 'cancelled' | 'awaiting_approval';
  /** The model's answer (its last text). */
  content: string;
  requestId: string;
  /** The model still asked for tools at its last allowed call; those calls were not run. */
  haltedAtIterationLimit: boolean;
  /** The turn was cancelled; `content` is what had arrived. */
  cancelled: boolean;
  usage: TurnUsage;
  toolCalls: ToolCallRecord[];
  /** The calls waiting for a person (empty unless `status` is `awaiting_approval`). */
  approvals: PendingApproval[];
}

/** The outcome of {@link Agent.resolveApproval}. */
export interface ApprovalResolution {
  status: ApprovalStatus;
  requestId: string;
  /** Settles at the turn's next pause or at its end. */
  result: Promise<TurnResult>;
}

/** Token accounting of the context (the seeds' `get_tokens`). */
export interface TokenReport {
  system: number;
  tools: number;
  messages: number;
  total: number;
  /** The model's context window. */
  budget: number;
  /** What the conversation may use: the budget less the system prompt and tool definitions. */
  available: number;
  /** The budget less the total. */
  remaining: number;
}

/** The agent's state (the seeds' `get_context`). */
export interface ContextReport {
  message_count: number;
  system_prompt: string;
  halted_at_iteration_limit: boolean;
  last_iteration_count: number;
  max_tool_iterations: number;
}

/** The outcome of {@link Agent.compact}. */
export type CompactResult =
  | { compacted: true; tokensBefore: number; tokensAfter: number; tokensSaved: number }
  | { compacted: false; reason: string };

function toolResultMessage(outcomes: readonly ToolCallOutcome[]): ToolModelMessage {
  return {
    role: 'tool',
    content: outcomes.map(({ call, success, output }) => ({
      type: 'tool-result',
      toolCallId: call.id,
      toolName: call.name,
      output: success ? { type: 'text', value: output } : { type: 'error-text', value: output },
    })),
  };
}

/**
 * An LLM agent: a system prompt, a model, a registry and a conversation. Each {@link send} runs
 * one turn — stream the model, run the tools it calls through `registry.execute`, feed the results
 * back, until it answers without tools or the iteration limit. Turns of one agent run one at a
 * time, in the order they were sent.
 */
export class Agent {
  readonly model: ResolvedModel;
  readonly registry: SkillRegistry;
  readonly systemPrompt: string;
  readonly maxToolIterations: number;
  readonly #toolTimeoutMs: number | undefined;
  readonly #compactAt: number;
  readonly #confirm: ConfirmFunction | undefined;
  readonly #onCheckpoint: AgentOptions['onCheckpoint'];
  readonly #journal: TurnJournal;
  readonly #caller: CallerIdentity | undefined;
  #messages: ModelMessage[];
  #remembered: RememberedApproval[];
  #haltedAtIterationLimit = false;
  #lastIterationCount = 0;
  #queue: Promise<unknown> = Promise.resolve();
  /** The turns sent and not yet over, by request id. */
  readonly #progress = new Map<string, TurnProgress>();
  /** The turn running or paused now. */
  #active: ActiveTurn | undefined;
  #tokenCounter: TokenCounter | undefined;

  constructor(options: AgentOptions) {
    const { maxToolIterations = DEFAULT_MAX_TOOL_ITERATIONS, compactAt = DEFAULT_COMPACT_AT, toolTimeoutMs } = options;
    expectOption(
      Number.isInteger(maxToolIterations) && maxToolIterations > 0,
      'maxToolIterations',
      'a positive integer',
      maxToolIterations,
    );
    expectOption(isPositiveNumber(compactAt) && compactAt <= 1, 'compactAt', 'a number in (0, 1]', compactAt);
    expectOption(
      toolTimeoutMs === undefined || isPositiveNumber(toolTimeoutMs),
      'toolTimeoutMs',
      'a positive number of milliseconds',
      toolTimeoutMs,
    );
    this.model = options.model;
    this.registry = options.registry;
    this.systemPrompt = options.systemPrompt ?? '';
    this.maxToolIterations = maxToolIterations;
    this.#toolTimeoutMs = toolTimeoutMs;
    this.#compactAt = compactAt;
    this.#confirm = options.confirm;
    this.#onCheckpoint = options.onCheckpoint;
    this.#journal = options.journal ?? runEveryStep;
    this.#caller = options.caller;
    this.#messages = [...(options.messages ?? [])];
    this.#remembered = [...(options.rememberedApprovals ?? [])];
    // Warnings reach the caller as `warning` events; the AI SDK would print them to the console.
    globalThis.AI_SDK_LOG_WARNINGS ??= false;
  }

  /** The conversation so far (a copy). */
  get messages(): ModelMessage[] {
    return [...this.#messages];
  }

  /** The current turn as a saved session keeps it: running, paused for approval, or `undefined` between turns. */
  get turnState(): TurnState | undefined {
    return this.#active?.state;
  }

  /** The calls the current turn waits on. */
  get pendingApprovals(): PendingApproval[] {
    return this.#active?.waiting ?? [];
  }

  /** Approvals given with `remember: true` (a copy). */
  get rememberedApprovals(): RememberedApproval[] {
    return [...this.#remembered];
  }

  /**
   * Runs one turn with `content` as the user's message. Resolves when the turn ends, or when it
   * pauses at a call waiting for approval (`status: 'awaiting_approval'`; see
   * {@link resolveApproval} and {@link turn}). Tool failures and refusals are fed to the model
   * as text, never thrown; a cancelled turn resolves with `cancelled: true`. Throws a
   * `ProviderError` (one line naming the model, host and status) when the provider fails.
   */
  send(content: string, options: SendOptions = {}): Promise<TurnResult> {
    expectOption(typeof content === 'string' && content.trim() !== '', 'content', 'a non-blank string', content);
    return this.#enqueue(options, (turn) => this.#runTurn(turn, content));
  }

  /**
   * Continues a turn that a saved session left paused for approval (`turnState` of an earlier
   * agent, with its `messages`). Resolves as {@link send} does — at once, with the approvals it waits on.
   */
  resume(paused: PausedTurn, options: Omit<SendOptions, 'requestId' | 'confirm'> = {}): Promise<TurnResult> {
    return this.#enqueue({ ...options, requestId: paused.requestId }, (turn) => this.#runTurn(turn), paused);
  }

  /** The turn of `requestId` while it is queued, running or paused (`undefined` once it is over, or when there is none). */
  turn(requestId: string): TurnWatch | undefined {
    return this.#progress.get(requestId);
  }

  /**
   * Decides a call the current turn waits on. `approve` runs the exact call — unless the policy
   * (`policyDigest` of the registry's services) or the tool's package changed since the question was
   * asked: then it is `stale`, not run, and the model told why. `deny` tells the model who denied it
   * and why. The turn goes on by itself once every call it waits on is decided. Throws an
   * `InvalidOptionError` for an id that is not pending.
   */
  resolveApproval(approvalId: string, decision: ApprovalDecision): ApprovalResolution {
    const turn = this.#active;
    const approval = turn?.undecided(approvalId);
    if (!turn || !approval) throw new InvalidOptionError(`No pending approval "${approvalId}".`, { option: 'approvalId' });
    expectOption(decision.decision === 'approve' || decision.decision === 'deny', 'decision', '"approve" or "deny"', decision.decision);
    const staleReason = decision.decision === 'approve' ? this.#staleness(approval) : undefined;
    const status: ApprovalStatus = decision.decision === 'deny' ? 'denied' : staleReason ? 'stale' : 'approved';
    if (status === 'approved' && decision.remember) this.#remembered.push(rememberedFrom(approval));
    turn.decide({ approval, status, decision, ...(staleReason ? { staleReason } : {}) });
    // While others of the pause wait, the turn stays paused; once all are decided, it goes on to its next pause or end.
    const result = turn.waiting.length > 0 ? Promise.resolve(turn.result('awaiting_approval')) : turn.progress.next();
    return { status, requestId: turn.requestId, result };
  }

  /** Why an approval no longer holds, or `undefined` when it does. */
  #staleness(approval: PendingApproval): string | undefined {
    if (policyDigest(this.registry.services) !== approval.policyDigest) return "the agent's policy changed since it was asked";
    const spec = this.registry.getSpec(approval.tool);
    if (!spec) return `the tool ${approval.tool} is no longer available`;
    if (spec.packageDigest !== approval.packageDigest) return `the skill package of ${approval.tool} changed since it was asked`;
    return undefined;
  }

  #enqueue(options: SendOptions, run: (turn: ActiveTurn) => Promise<TurnResult>, paused?: PausedTurn): Promise<TurnResult> {
    const requestId = options.requestId ?? randomUUID();
    if (this.#progress.has(requestId))
      throw new InvalidOptionError(`A turn with request id "${requestId}" is already queued, running or paused.`, { option: 'requestId' });
    const progress = new TurnProgress();
    this.#progress.set(requestId, progress);
    const signal = options.signal ?? new AbortController().signal;
    const setup: TurnSetup = {
      requestId,
      signal,
      onEvent: options.onEvent ?? (() => {}),
      asker: options.confirm ?? this.#confirm ?? this.registry.services.get('confirm'),
    };
    let started = false;
    const turn = this.#queue.then(() => {
      started = true;
      return run(new ActiveTurn(setup, progress, paused));
    });
    this.#queue = turn.catch(() => {});
    // A turn cancelled while it waits for the one before answers at once (and later runs to nothing).
    const cancelWhileQueued = () => {
      if (!started) progress.finish(this.#cancelledTurn(requestId));
    };
    if (signal.aborted) cancelWhileQueued();
    signal.addEventListener('abort', cancelWhileQueued, { once: true });
    turn
      .then(
        (result) => progress.finish(result),
        (error: unknown) => progress.fail(error),
      )
      .finally(() => {
        signal.removeEventListener('abort', cancelWhileQueued);
        this.#progress.delete(requestId);
      });
    return progress.next();
  }

  #cancelledTurn(requestId: string): TurnResult {
    return {
      status: 'cancelled',
      content: '',
      requestId,
      haltedAtIterationLimit: false,
      cancelled: true,
      usage: emptyUsage(),
      toolCalls: [],
      approvals: [],
    };
  }

  async #checkpoint(checkpoint: TurnCheckpoint): Promise<void> {
    await this.#onCheckpoint?.(checkpoint);
  }

  /** Runs a turn: with `content`, a new one; without, one resumed from its pause. */
  async #runTurn(turn: ActiveTurn, content?: string): Promise<TurnResult> {
    // A turn cancelled while it waited for the one before leaves no trace in the conversation.
    if (turn.signal.aborted && content !== undefined) return turn.result('cancelled');
    this.#active = turn;
    if (content !== undefined) {
      this.#messages.push({ role: 'user', content });
      try {
        await this.#checkpoint({ type: 'running', requestId: turn.requestId });
      } catch (error) {
        // A turn that cannot be saved does not start: it leaves no trace.
        this.#messages.pop();
        this.#active = undefined;
        throw error;
      }
    }
    let result: TurnResult | undefined;
    try {
      result = await inTurnSpan({ requestId: turn.requestId, ...this.#caller, model: this.#modelId() }, () => this.#loop(turn));
      this.#haltedAtIterationLimit = result.haltedAtIterationLimit;
      return result;
    } finally {
      this.#active = undefined;
      // A skill's `allowed-tools` narrow the tools while the model follows it: until the turn ends.
      this.registry.services.unregister('toolScope');
      await this.#checkpoint({ type: 'ended', requestId: turn.requestId, ...(result ? { result } : {}) });
    }
  }

  async #loop(turn: ActiveTurn): Promise<TurnResult> {
    const { signal, onEvent } = turn;
    if (turn.step) {
      const ended = await this.#finishStep(turn);
      if (ended) return ended;
    }
    let toolsVersion = this.registry.version;
    let tools = turnTools(this.registry, this.model.type, this.model.strictTools);
    for (;;) {
      this.#lastIterationCount = ++turn.iteration;
      if (signal.aborted) return turn.result('cancelled');
      // Skills can change while an agent runs (skill packages edited on disk): each step offers the tools of now.
      await this.registry.refresh();
      if (this.registry.version !== toolsVersion) {
        toolsVersion = this.registry.version;
        tools = turnTools(this.registry, this.model.type, this.model.strictTools);
      }
      await this.#compactIfNeeded(tools, signal, onEvent);
      const contextBefore = this.#messages.length;
      let step: Awaited<ReturnType<typeof streamStep>>;
      try {
        step = await this.#journal(
          `${turn.requestId} model step ${turn.iteration}`,
          () =>
            streamStep({
              model: this.model.model,
              instructions: this.systemPrompt,
              messages: this.#messages,
              tools: tools.set,
              signal,
              maxOutputTokens: this.model.maxOutputTokens,
              onText: (text) => onEvent({ type: 'text', text }),
              onWarning: (message) => onEvent({ type: 'warning', message }),
            }),
          { readOnly: true, kind: 'model step' },
        );
      } catch (error) {
        throw toProviderError(error, this.model);
      }
      turn.text = step.text;
      const calls = step.aborted ? [] : step.toolCalls;
      this.#messages.push({
        role: 'assistant',
        content: [
          ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
          ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.arguments ?? {} })),
        ],
      });
      turn.usage = addUsage(turn.usage, await this.#stepUsage(step.usage, contextBefore, tools));
      onEvent({ type: 'usage', usage: { ...turn.usage } });
      if (step.aborted) return turn.result('cancelled');
      if (calls.length === 0) return turn.result('completed');
      for (const call of calls) {
        const record = { id: call.id, name: call.name, arguments: call.arguments ?? call.rawArguments ?? '' };
        turn.toolCalls.push({ ...record, success: false });
        onEvent({ type: 'tool-call', ...record });
      }
      if (turn.iteration >= this.maxToolIterations) {
        const why = `not run: this turn reached its limit of ${this.maxToolIterations} model calls`;
        const outcomes = calls.map((call) => failedOutcome(call, 'cancelled', why));
        for (const outcome of outcomes) this.#report(turn, outcome);
        this.#messages.push(toolResultMessage(outcomes));
        return turn.result('completed', { halted: true });
      }
      turn.step = { calls, outcomes: [] };
      const ended = await this.#finishStep(turn);
      if (ended) return ended;
    }
  }

  /**
   * Runs the open step's calls that have no outcome yet; when some wait for a person, pauses —
   * saved first, then reported — until each is decided, and goes on. Feeds the outcomes to the
   * model; returns the turn's result when it was cancelled.
   */
  async #finishStep(turn: ActiveTurn): Promise<TurnResult | undefined> {
    const step = turn.step as NonNullable<ActiveTurn['step']>;
    const hasOutcome = (call: RequestedToolCall) => step.outcomes.some((outcome) => outcome.call.id === call.id);
    for (;;) {
      if (turn.approvals.length === 0) {
        const waiting = step.calls.filter((call) => !hasOutcome(call));
        if (waiting.length === 0) break;
        const report = await runToolCalls(waiting, {
          registry: this.registry,
          signal: turn.signal,
          timeoutMs: this.#toolTimeoutMs,
          ...(this.#caller ? { caller: this.#caller } : {}),
          // A call run again once approved is another entry: the journal keeps its paused run apart.
          journal: (call, run, step) => {
            const approvals = turn.granted.get(call.id)?.length ?? 0;
            return this.#journal(`${turn.requestId} tool call ${call.id}${approvals > 0 ? ` approved ${approvals}` : ''}`, run, step);
          },
          confirmFor: (call) =>
            turn.asker ? { confirm: turn.asker } : pausingConfirm(call, turn.granted.get(call.id) ?? [], this.#remembered),
          onOutcome: (outcome) => this.#report(turn, outcome),
        });
        step.outcomes.push(...report.outcomes);
        if (report.paused.length === 0) continue;
        // Journaled: a turn replayed after a crash asks the same approvals, by the same ids, under the
        // policy they were asked under (a replay under another policy finds them stale when decided).
        const pausedIds = report.paused.map(({ call }) => call.id);
        const asked = await this.#journal(
          `${turn.requestId} approval ids ${pausedIds.join(',')}`,
          async () => ({
            approvalIds: pausedIds.map(() => `ap-${randomUUID()}`),
            createdAt: new Date().toISOString(),
            policyDigest: policyDigest(this.registry.services),
            packageDigests: report.paused.map(({ call }) => this.registry.getSpec(call.name)?.packageDigest ?? null),
          }),
          { readOnly: false, kind: 'approval ids' },
        );
        turn.approvals = report.paused.map(({ call, request }, index) =>
          approvalFor(call, request, {
            approvalId: asked.approvalIds[index] as string,
            createdAt: asked.createdAt,
            requestId: turn.requestId,
            policyDigest: asked.policyDigest,
            packageDigest: asked.packageDigests[index] ?? undefined,
          }),
        );
      }
      await this.#checkpoint({ type: 'awaiting_approval', requestId: turn.requestId });
      for (const approval of turn.approvals) turn.onEvent({ type: 'approval-required', approval });
      turn.progress.pause(turn.result('awaiting_approval'));
      const decisions = await turn.decisions();
      if (!decisions) break;
      for (const taken of decisions) {
        const call = step.calls.find((each) => each.id === taken.approval.toolCallId) as RequestedToolCall;
        const outcome = decidedOutcome(call, taken);
        if (outcome) {
          step.outcomes.push(outcome);
          this.#report(turn, outcome);
        } else turn.granted.set(call.id, [...(turn.granted.get(call.id) ?? []), taken.approval.request]);
      }
      await this.#checkpoint({ type: 'running', requestId: turn.requestId });
    }
    // Cancelled while it waited: every call without an outcome is cancelled, so the history stays valid.
    for (const call of step.calls.filter((each) => !hasOutcome(each))) {
      const outcome = failedOutcome(call, 'cancelled', 'cancelled by the user');
      step.outcomes.push(outcome);
      this.#report(turn, outcome);
    }
    const order = new Map(step.calls.map((call, index) => [call.id, index]));
    this.#messages.push(toolResultMessage(step.outcomes.toSorted((a, b) => (order.get(a.call.id) ?? 0) - (order.get(b.call.id) ?? 0))));
    turn.step = undefined;
    turn.granted.clear();
    return turn.signal.aborted ? turn.result('cancelled') : undefined;
  }

  /** Records a call's outcome in the turn and tells the caller. */
  #report(turn: ActiveTurn, { call, success, kind, output }: ToolCallOutcome): void {
    const record = turn.toolCalls.findLast((entry) => entry.id === call.id);
    if (record) Object.assign(record, { success }, kind ? { kind } : {});
    turn.onEvent({ type: 'tool-result', id: call.id, name: call.name, success, ...(kind ? { kind } : {}), output });
  }

  #modelId(): string {
    const { model } = this.model;
    return typeof model === 'string' ? model : model.modelId;
  }

  /** The provider's usage of a step, or a local estimate where it did not report it. */
  async #stepUsage(reported: LanguageModelUsage | undefined, contextBefore: number, tools: TurnTools): Promise<TurnUsage> {
    if (reported?.inputTokens !== undefined && reported.outputTokens !== undefined)
      return usageOf(reported.inputTokens, reported.outputTokens, false);
    const counter = await this.#counter();
    const [system = 0, toolTokens = 0] = reported?.inputTokens === undefined ? await counter.texts([this.systemPrompt, tools.json]) : [];
    const input = reported?.inputTokens ?? system + toolTokens + (await counter.messages(this.#messages.slice(0, contextBefore)));
    const output = reported?.outputTokens ?? (await counter.messages(this.#messages.slice(contextBefore)));
    return usageOf(input, output, true);
  }

  async #counter(): Promise<TokenCounter> {
    this.#tokenCounter ??= await TokenCounter.load();
    return this.#tokenCounter;
  }

  async #compactIfNeeded(tools: TurnTools, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<void> {
    const threshold = this.model.contextWindow * this.#compactAt;
    let bound = Buffer.byteLength(this.systemPrompt) + Buffer.byteLength(tools.json);
    for (const message of this.#messages) bound += TokenCounter.upperBound(message);
    if (bound <= threshold) return;
    const before = (await this.tokens(tools)).total;
    if (before <= threshold) return;
    const result = await this.#compact(signal, tools);
    if (result.compacted) onEvent({ type: 'compacted', tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter });
  }

  /**
   * Token accounting of the context, counted with the o200k tokenizer (an estimate for models
   * with other tokenizers).
   */
  async tokens(tools: TurnTools = turnTools(this.registry, this.model.type, this.model.strictTools)): Promise<TokenReport> {
    const counter = await this.#counter();
    const [[system = 0, toolTokens = 0], messages] = await Promise.all([
      counter.texts([this.systemPrompt, tools.json]),
      counter.messages(this.#messages),
    ]);
    const total = system + toolTokens + messages;
    const budget = this.model.contextWindow;
    return { system, tools: toolTokens, messages, total, budget, available: budget - system - toolTokens, remaining: budget - total };
  }

  /** The agent's state, in the seeds' `get_context` fields. */
  context(): ContextReport {
    return {
      message_count: this.#messages.length,
      system_prompt: this.systemPrompt,
      halted_at_iteration_limit: this.#haltedAtIterationLimit,
      last_iteration_count: this.#lastIterationCount,
      max_tool_iterations: this.maxToolIterations,
    };
  }

  /**
   * Summarises older messages with the model and keeps recent ones (a tool call and its result
   * never split). Without `force` it compacts only past `compactAt` of the context window. Waits
   * for a running turn.
   */
  compact(options: { force?: boolean; signal?: AbortSignal } = {}): Promise<CompactResult> {
    const { force = true, signal = new AbortController().signal } = options;
    const run = this.#queue.then(async () => {
      const tools = turnTools(this.registry, this.model.type, this.model.strictTools);
      if (!force && (await this.tokens(tools)).total <= this.model.contextWindow * this.#compactAt)
        return { compacted: false as const, reason: 'the context is below the compaction threshold' };
      return this.#compact(signal, tools);
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async #compact(signal: AbortSignal, tools: TurnTools): Promise<CompactResult> {
    const counter = await this.#counter();
    const before = (await this.tokens(tools)).total;
    const keep = Math.floor(this.model.contextWindow * this.#compactAt * KEEP_SHARE);
    const split = await findSplit(this.#messages, keep, counter);
    if (split === undefined) return { compacted: false, reason: 'nothing to compact' };
    let summary: ModelMessage;
    try {
      summary = await summarize(this.model.model, this.#messages.slice(0, split), signal);
    } catch (error) {
      throw toProviderError(error, this.model);
    }
    this.#messages = [summary, ...this.#messages.slice(split)];
    const after = (await this.tokens(tools)).total;
    return { compacted: true, tokensBefore: before, tokensAfter: after, tokensSaved: before - after };
  }

  /** Forgets the conversation (the system prompt stays). Waits for a running turn. */
  clear(): Promise<void> {
    const run = this.#queue.then(() => {
      this.#messages = [];
      this.#haltedAtIterationLimit = false;
      this.#lastIterationCount = 0;
    });
    this.#queue = run;
    return run;
  }
}
