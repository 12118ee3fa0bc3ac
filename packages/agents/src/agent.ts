import { randomUUID } from 'node:crypto';
import { type ConfirmFunction, expectOption, isPositiveNumber, type ToolErrorKind } from '@nexus/core';
import type { SkillRegistry } from '@nexus/registry';
import type { LanguageModelUsage, ModelMessage, ToolModelMessage } from 'ai';
import { findSplit, KEEP_SHARE, summarize } from './compaction.js';
import { toProviderError } from './provider-error.js';
import type { ResolvedModel } from './resolve-model.js';
import { failedOutcome, runToolCalls, type ToolCallOutcome } from './run-tool-calls.js';
import { streamStep } from './stream-step.js';
import { TokenCounter } from './token-counter.js';
import { type TurnTools, turnTools } from './tool-set.js';

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
  /** Asked when a tool call needs approval (absent: such calls are refused). */
  confirm?: ConfirmFunction;
  /** A conversation to continue. */
  messages?: readonly ModelMessage[];
}

/** Tokens as the provider counted them over a turn, or as estimated locally where it did not say. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Whether any figure is a local estimate (the provider did not report usage). */
  estimated: boolean;
}

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
  /** The provider package's warnings (an unsupported setting, a compatibility mode), which the AI SDK would print. */
  | { type: 'warning'; message: string };

/** Options of {@link Agent.send}. */
export interface SendOptions {
  /** Cancels the turn: the model stream and every running tool. */
  signal?: AbortSignal;
  /** Names the turn (default: a random id). */
  requestId?: string;
  onEvent?: (event: AgentEvent) => void;
  /** Who approves this turn's tool calls (default: the agent's `confirm`). */
  confirm?: ConfirmFunction;
}

/** The outcome of a turn. */
export interface TurnResult {
  /** The model's answer (its last text). */
  content: string;
  requestId: string;
  /** The model still asked for tools at its last allowed call; those calls were not run. */
  haltedAtIterationLimit: boolean;
  /** The turn was cancelled; `content` is what had arrived. */
  cancelled: boolean;
  usage: TurnUsage;
  toolCalls: ToolCallRecord[];
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

function usageOf(inputTokens: number, outputTokens: number, estimated: boolean): TurnUsage {
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, estimated };
}

/** No tokens yet: the start of a turn's (or an agent's) usage. */
export function emptyUsage(): TurnUsage {
  return usageOf(0, 0, false);
}

/** The sum of two usages (estimated when either is). */
export function addUsage(total: TurnUsage, more: TurnUsage): TurnUsage {
  return usageOf(total.inputTokens + more.inputTokens, total.outputTokens + more.outputTokens, total.estimated || more.estimated);
}

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
  #messages: ModelMessage[];
  #haltedAtIterationLimit = false;
  #lastIterationCount = 0;
  #queue: Promise<unknown> = Promise.resolve();
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
    this.#messages = [...(options.messages ?? [])];
    // Warnings reach the caller as `warning` events; the AI SDK would print them to the console.
    globalThis.AI_SDK_LOG_WARNINGS ??= false;
  }

  /** The conversation so far (a copy). */
  get messages(): ModelMessage[] {
    return [...this.#messages];
  }

  /**
   * Runs one turn with `content` as the user's message. Tool failures and refusals are fed to the
   * model as text, never thrown; a cancelled turn resolves with `cancelled: true`. Throws a
   * `ProviderError` (one line naming the model, host and status) when the provider fails.
   */
  send(content: string, options: SendOptions = {}): Promise<TurnResult> {
    expectOption(typeof content === 'string' && content.trim() !== '', 'content', 'a non-blank string', content);
    const turnOptions = { ...options, requestId: options.requestId ?? randomUUID() };
    let started = false;
    const turn = this.#queue.then(() => {
      started = true;
      return this.#runTurn(content, turnOptions);
    });
    this.#queue = turn.catch(() => {});
    const { signal } = options;
    if (!signal) return turn;
    // A turn cancelled while it waits for the one before answers at once (and later runs to nothing).
    return new Promise<TurnResult>((resolve, reject) => {
      const cancelWhileQueued = () => {
        if (!started) resolve(this.#cancelledTurn(turnOptions.requestId));
      };
      if (signal.aborted) cancelWhileQueued();
      signal.addEventListener('abort', cancelWhileQueued, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', cancelWhileQueued));
    });
  }

  #cancelledTurn(requestId: string): TurnResult {
    return {
      content: '',
      requestId,
      haltedAtIterationLimit: false,
      cancelled: true,
      usage: emptyUsage(),
      toolCalls: [],
    };
  }

  async #runTurn(content: string, options: SendOptions & { requestId: string }): Promise<TurnResult> {
    const { signal = new AbortController().signal, requestId, onEvent = () => {}, confirm = this.#confirm } = options;
    let usage = emptyUsage();
    const toolCalls: ToolCallRecord[] = [];
    let toolsVersion = this.registry.version;
    let tools = turnTools(this.registry, this.model.type, this.model.strictTools);
    const finish = (text: string, halted: boolean, wasCancelled: boolean): TurnResult => {
      this.#haltedAtIterationLimit = halted;
      return { content: text, requestId, haltedAtIterationLimit: halted, cancelled: wasCancelled, usage, toolCalls };
    };
    // A turn cancelled while it waited for the one before leaves no trace in the conversation.
    if (signal.aborted) return finish('', false, true);
    this.#messages.push({ role: 'user', content });
    for (let iteration = 1; ; iteration++) {
      this.#lastIterationCount = iteration;
      if (signal.aborted) return finish('', false, true);
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
        step = await streamStep({
          model: this.model.model,
          instructions: this.systemPrompt,
          messages: this.#messages,
          tools: tools.set,
          signal,
          maxOutputTokens: this.model.maxOutputTokens,
          onText: (text) => onEvent({ type: 'text', text }),
          onWarning: (message) => onEvent({ type: 'warning', message }),
        });
      } catch (error) {
        throw toProviderError(error, this.model);
      }
      const calls = step.aborted ? [] : step.toolCalls;
      this.#messages.push({
        role: 'assistant',
        content: [
          ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
          ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.arguments ?? {} })),
        ],
      });
      usage = addUsage(usage, await this.#stepUsage(step.usage, contextBefore, tools));
      onEvent({ type: 'usage', usage: { ...usage } });
      if (step.aborted) return finish(step.text, false, true);
      if (calls.length === 0) return finish(step.text, false, false);
      for (const call of calls) {
        const record = { id: call.id, name: call.name, arguments: call.arguments ?? call.rawArguments ?? '' };
        toolCalls.push({ ...record, success: false });
        onEvent({ type: 'tool-call', ...record });
      }
      const report = ({ call, success, kind, output }: ToolCallOutcome) => {
        const record = toolCalls.findLast((entry) => entry.id === call.id);
        if (record) Object.assign(record, { success }, kind ? { kind } : {});
        onEvent({ type: 'tool-result', id: call.id, name: call.name, success, ...(kind ? { kind } : {}), output });
      };
      const halted = iteration >= this.maxToolIterations;
      const outcomes = halted
        ? calls.map((call) =>
            failedOutcome(call, 'cancelled', `not run: this turn reached its limit of ${this.maxToolIterations} model calls`),
          )
        : await runToolCalls(calls, { registry: this.registry, signal, confirm, timeoutMs: this.#toolTimeoutMs, onOutcome: report });
      if (halted) outcomes.forEach(report);
      this.#messages.push(toolResultMessage(outcomes));
      if (halted) return finish(step.text, true, false);
      if (signal.aborted) return finish(step.text, false, true);
    }
  }

  /** The provider's usage of a step, or a local estimate where it did not report it. */
  async #stepUsage(reported: LanguageModelUsage | undefined, contextBefore: number, tools: TurnTools): Promise<TurnUsage> {
    if (reported?.inputTokens !== undefined && reported.outputTokens !== undefined)
      return usageOf(reported.inputTokens, reported.outputTokens, false);
    const counter = await this.#counter();
    const input =
      reported?.inputTokens ??
      counter.text(this.systemPrompt) + counter.text(tools.json) + counter.messages(this.#messages.slice(0, contextBefore));
    const output = reported?.outputTokens ?? counter.messages(this.#messages.slice(contextBefore));
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
    const system = counter.text(this.systemPrompt);
    const toolTokens = counter.text(tools.json);
    const messages = counter.messages(this.#messages);
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
    const split = findSplit(this.#messages, keep, counter);
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
