import type { ConfirmationRequest, ConfirmFunction, ToolErrorKind } from '@nexus/core';
import type { CallerIdentity, SkillRegistry } from '@nexus/registry';
import type { TurnStep } from './agent.js';
import type { StepOutcome } from './stream-step.js';

/** A tool call as the model made it. */
export interface RequestedToolCall {
  readonly id: string;
  readonly name: string;
  /** The parsed arguments; `undefined` when the model's text was not a JSON object. */
  readonly arguments: Record<string, unknown> | undefined;
  /** The model's text when it did not parse. */
  readonly rawArguments?: string;
}

/** A tool call and its outcome, as the model is told it. */
export interface ToolCallOutcome {
  readonly call: RequestedToolCall;
  readonly success: boolean;
  readonly kind?: ToolErrorKind;
  /** The text fed back to the model: the tool's output, or `Error (kind): message`. */
  readonly output: string;
}

/** A call stopped at a confirmation that nobody answered yet: the turn pauses there. */
export interface PausedToolCall {
  readonly call: RequestedToolCall;
  /** The confirmation it asked. */
  readonly request: ConfirmationRequest;
}

/** How a turn runs its tool calls. */
export interface ToolRunOptions {
  readonly registry: SkillRegistry;
  readonly signal: AbortSignal;
  /**
   * How each call asks for confirmation: `confirm` answers; a request it notes in `asked` (and
   * refuses) pauses the call instead of failing it.
   */
  readonly confirmFor: (call: RequestedToolCall) => { confirm?: ConfirmFunction; asked?: readonly ConfirmationRequest[] };
  readonly timeoutMs?: number;
  /** Who makes the calls, as the audit log and traces name them (`registry.execute`'s `caller`). */
  readonly caller?: CallerIdentity;
  /**
   * Runs each call (the agent's turn journal), its answer what the model is told or the
   * confirmation it paused at — so a replayed call that paused pauses again; default: runs it.
   */
  readonly journal?: (
    call: RequestedToolCall,
    run: () => Promise<ToolCallOutcome | PausedToolCall>,
    step: TurnStep,
  ) => Promise<ToolCallOutcome | PausedToolCall>;
  /** Called as each call finishes. */
  readonly onOutcome: (outcome: ToolCallOutcome) => void;
}

/** What running a step's calls came to: the outcomes (in the order they finished) and the calls that wait for a person. */
export interface ToolRunReport {
  readonly outcomes: ToolCallOutcome[];
  readonly paused: PausedToolCall[];
}

/** A call the user cancelled: the history keeps a result for every call, so the next turn stays valid. */
function cancelled(call: RequestedToolCall): ToolCallOutcome {
  return failedOutcome(call, 'cancelled', 'cancelled by the user');
}

/** A failed call as the model is told it: `Error (kind): message`. */
export function failedOutcome(call: RequestedToolCall, kind: ToolErrorKind, message: string): ToolCallOutcome {
  return { call, success: false, kind, output: `Error (${kind}): ${message}` };
}

async function runOne(call: RequestedToolCall, options: ToolRunOptions): Promise<ToolCallOutcome | PausedToolCall> {
  const { registry, signal, timeoutMs, caller } = options;
  if (signal.aborted) return cancelled(call);
  if (call.arguments === undefined) {
    return failedOutcome(
      call,
      'invalid_input',
      `the arguments are not a JSON object (got ${JSON.stringify(call.rawArguments?.slice(0, 200) ?? '')}); call ${call.name} again with its arguments as one JSON object.`,
    );
  }
  const { arguments: input } = call;
  const execute = async (): Promise<ToolCallOutcome | PausedToolCall> => {
    const { confirm, asked = [] } = options.confirmFor(call);
    const result = await registry.execute(call.name, input, {
      signal,
      confirm,
      toolCallId: call.id,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(caller ? { caller } : {}),
    });
    const request = asked[0];
    if (request && !result.success && !signal.aborted) return { call, request };
    if (result.success) return { call, success: true, output: result.output || '(no output)' };
    if (result.kind === 'cancelled' && signal.aborted) return cancelled(call);
    return failedOutcome(call, result.kind ?? 'execution_failed', result.error);
  };
  return options.journal ? options.journal(call, execute, { readOnly: isReadOnly(registry, call), kind: 'tool call' }) : execute();
}

/**
 * Whether a model step's answer, as a turn journal is given it, asks a call that may write (one of
 * a skill that is not read-only): a journal records such an answer before the call runs.
 */
export function asksWrite(registry: SkillRegistry, answer: unknown): boolean {
  const { aborted, toolCalls } = answer as StepOutcome;
  return !aborted && toolCalls.some((call) => !isReadOnly(registry, call));
}

/** Whether `call` is of a read-only skill (one that changes nothing: run again, or at once with others, it is harmless). */
function isReadOnly(registry: SkillRegistry, call: RequestedToolCall | undefined): boolean {
  return call !== undefined && registry.getSpec(call.name)?.readOnly === true;
}

/**
 * Runs one step's tool calls through `registry.execute`, in the model's order except that a run
 * of consecutive read-only calls goes at once. A call never throws: failures become text the
 * model can act on, and once `signal` aborts, every call not yet finished is "cancelled by the user".
 * A call that waits for a person stops the run after its group: the calls after it are not run
 * (neither in `outcomes` nor in `paused`).
 */
export async function runToolCalls(calls: readonly RequestedToolCall[], options: ToolRunOptions): Promise<ToolRunReport> {
  const report: ToolRunReport = { outcomes: [], paused: [] };
  const settle = async (call: RequestedToolCall) => {
    const outcome = await runOne(call, options);
    if ('request' in outcome) report.paused.push(outcome);
    else {
      report.outcomes.push(outcome);
      options.onOutcome(outcome);
    }
  };
  for (let start = 0; start < calls.length && report.paused.length === 0; ) {
    let end = start + 1;
    if (isReadOnly(options.registry, calls[start])) while (isReadOnly(options.registry, calls[end])) end++;
    await Promise.all(calls.slice(start, end).map(settle));
    start = end;
  }
  return report;
}
