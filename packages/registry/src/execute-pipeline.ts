import {
  type ConfirmFunction,
  expectOption,
  findToolRefusal,
  isPositiveNumber,
  type ServiceContainer,
  type Skill,
  type SkillContext,
  type SkillSpec,
  ToolResult,
} from '@nexus/core';
import type { Span } from '@opentelemetry/api';
import { type AuditSink, auditRecordOf, CallTrail, type ConfirmedBy, type EndedCall, endedCall } from './audit-record.js';
import {
  type AfterCallHook,
  type BeforeCallHook,
  type CallerIdentity,
  type CallHooks,
  type CallInfo,
  describeHook,
  type HookLists,
  hookLabel,
  joinHooks,
} from './call-hooks.js';
import { DeadlineTimer } from './deadline-timer.js';
import { dropOptionalNulls } from './drop-optional-nulls.js';
import { ParameterValidator } from './parameter-validator.js';
import { RunningCall } from './running-call.js';
import type { CatalogueEntry } from './skill-catalogue.js';
import { findMatchingRule } from './tool-rules.js';
import { endToolSpan, startToolSpan, withinSpan } from './tool-span.js';

/** Time limit of a call when neither the registry nor the call sets one: a little over `sleep`'s maximum. */
export const DEFAULT_EXECUTION_TIMEOUT_MS = 3_660_000;

/** Options of a `SkillRegistry`: the time limits of its pipeline and the hooks it runs around each call. */
export interface SkillRegistryOptions extends CallHooks {
  /** Time limit of each `execute` call, in ms (default {@link DEFAULT_EXECUTION_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * How long a call may run in all when the skill extends its time limit while it shows progress
   * (`context.extendDeadline`), in ms from its start (default {@link DEFAULT_EXECUTION_TIMEOUT_MS};
   * never less than the call's `timeoutMs`).
   */
  maxTotalMs?: number;
}

/** Options of `SkillRegistry.execute`. */
export interface ExecuteOptions extends Omit<SkillContext, 'extendDeadline'> {
  /** Time limit of this call, in ms; overrides the registry's. */
  timeoutMs?: number;
  /** How far the skill's progress may extend this call's time limit, in ms from its start; overrides the registry's. */
  maxTotalMs?: number;
  /** Who is calling, as the surface that took the call established it: for hooks, the audit log and traces. */
  caller?: CallerIdentity;
  /** The model's id of this tool call (`gen_ai.tool.call.id` of its span). */
  toolCallId?: string;
}

/** What the pipeline looks up in the registry's catalogue. */
export interface PipelineCatalogue {
  /** The services whose policy the gate applies and whose `confirm` is asked. */
  readonly services: ServiceContainer;
  /** The registered names, for the message of an unknown tool. */
  names(): string[];
  /** Lets a changing family bring the tool up to date first; `undefined` when there is nothing to wait for. */
  refreshFor(name: string): Promise<void> | undefined;
  /** The tool's entry as it is now. */
  entry(name: string): CatalogueEntry | undefined;
  /** The entry's skill, built on first use. */
  instanceOf(entry: CatalogueEntry): Skill;
}

function checkTimeout(timeoutMs: unknown, option: 'timeoutMs' | 'maxTotalMs' = 'timeoutMs'): number {
  expectOption(isPositiveNumber(timeoutMs), option, 'a positive number of milliseconds', timeoutMs);
  return timeoutMs as number;
}

/**
 * The one way a call reaches a skill: look-up → permission gate → validation → `beforeCall` hooks
 * (rewritten arguments validated again) → the policy's rules and confirmation where the policy asks
 * → the skill, with the caller's signal, a time limit and the caller's `confirm` → `afterCall`
 * hooks → anything thrown turned into a {@link ToolResult}. Policy is decided here, once, for every
 * caller; the call's audit record and trace span are made here too, when someone records them.
 */
export class ExecutePipeline {
  readonly #catalogue: PipelineCatalogue;
  readonly #validator = new ParameterValidator();
  readonly #timeoutMs: number;
  readonly #maxTotalMs: number;
  readonly #deadlines = new DeadlineTimer();
  readonly #ownHooks: CallHooks;
  /** The hooks of the options and of the `callHooks` service it was joined with. */
  #hooks: { served: CallHooks | undefined; lists: HookLists };
  /** Ended calls whose audit records are still to be made, with the sinks to hand them to. */
  #unaudited: { call: EndedCall; sinks: readonly AuditSink[] }[] = [];

  constructor(catalogue: PipelineCatalogue, options: SkillRegistryOptions = {}) {
    const { timeoutMs = DEFAULT_EXECUTION_TIMEOUT_MS, maxTotalMs = DEFAULT_EXECUTION_TIMEOUT_MS } = options;
    this.#timeoutMs = checkTimeout(timeoutMs);
    this.#maxTotalMs = checkTimeout(maxTotalMs, 'maxTotalMs');
    this.#catalogue = catalogue;
    const { beforeCall, afterCall, onAudit } = options;
    this.#ownHooks = { ...(beforeCall ? { beforeCall } : {}), ...(afterCall ? { afterCall } : {}), ...(onAudit ? { onAudit } : {}) };
    this.#hooks = { served: undefined, lists: joinHooks(this.#ownHooks, undefined) };
  }

  /** Runs a tool through the pipeline; never throws. */
  execute(name: string, args: Record<string, unknown>, options: ExecuteOptions): Promise<ToolResult> {
    const hooks = this.#currentHooks();
    const span = startToolSpan(name, options.toolCallId);
    // Nobody records: the call makes no trail, and no second async step (the pipeline's fast path).
    if (hooks.onAudit.length === 0 && !span) return this.#execute(name, args, options, hooks, undefined);
    return this.#executeRecorded(name, args, options, hooks, span);
  }

  /** A call whose trail someone records: the audit sinks, the span. */
  async #executeRecorded(
    name: string,
    args: Record<string, unknown>,
    options: ExecuteOptions,
    hooks: HookLists,
    span: Span | undefined,
  ): Promise<ToolResult> {
    const trail = new CallTrail(name, args, options.caller, options.toolCallId);
    const run = () => this.#execute(name, args, options, hooks, trail);
    const result = await (span ? withinSpan(span, run) : run());
    if (span) endToolSpan(span, trail, result, this.#catalogue.services);
    if (hooks.onAudit.length > 0) this.#audit(hooks.onAudit, trail, result);
    return result;
  }

  async #execute(
    name: string,
    args: Record<string, unknown>,
    options: ExecuteOptions,
    hooks: HookLists,
    trail: CallTrail | undefined,
  ): Promise<ToolResult> {
    const catalogue = this.#catalogue;
    try {
      const refreshing = catalogue.refreshFor(name);
      if (refreshing) await refreshing;
      const entry = catalogue.entry(name);
      if (!entry) {
        trail?.decide('deny', 'lookup');
        return ToolResult.fail(`Unknown tool "${name}". Available tools: ${catalogue.names().join(', ') || 'none'}.`, 'not_found');
      }
      if (trail) trail.packageDigest = entry.spec.packageDigest;
      const refusal = findToolRefusal(catalogue.services.getPermissions(), name, entry.spec);
      if (refusal !== undefined) {
        trail?.decide('deny', 'preset', refusal);
        return ToolResult.fail(refusal, 'forbidden');
      }
      const { parameters } = entry.spec;
      const validated = this.#validator.validate(name, parameters, dropOptionalNulls(parameters, args));
      const outcome = validated instanceof Promise ? await validated : validated;
      if (!outcome.valid) {
        trail?.decide('deny', 'validation');
        return ToolResult.fail(outcome.message, 'invalid_input', { data: { parameters: outcome.parameters } });
      }
      let callArgs = outcome.args;
      if (trail) trail.arguments = callArgs;
      if (hooks.beforeCall.length > 0) {
        const before = await this.#runBeforeCall(hooks.beforeCall, this.#callInfo(name, callArgs, options), parameters, options, trail);
        if (before instanceof ToolResult) return before;
        callArgs = before;
        if (trail) trail.arguments = callArgs;
      }
      const permissions = catalogue.services.getPermissions();
      // Nothing to decide past the gate (no rules, no confirmation): no await on the way to the skill.
      if (permissions?.rules?.length || permissions?.tools[name]?.requiresConfirmation) {
        const refused = await this.#decide(name, callArgs, options, trail);
        if (refused) return refused;
      }
      const result = await this.#run(name, catalogue.instanceOf(entry), callArgs, options, trail);
      return hooks.afterCall.length > 0
        ? await this.#runAfterCall(hooks.afterCall, this.#callInfo(name, callArgs, options), result)
        : result;
    } catch (error) {
      return ToolResult.fromError(error);
    }
  }

  /** Queues the call's record for the event loop's next turn, when it is made and handed to the sinks: after the caller has the result. */
  #audit(sinks: readonly AuditSink[], trail: CallTrail, result: ToolResult): void {
    try {
      const call = endedCall(trail, result, this.#catalogue.services);
      if (this.#unaudited.push({ call, sinks }) === 1) setImmediate(() => this.deliverAuditRecords());
    } catch {}
  }

  /**
   * Makes the audit records of the ended calls still waiting for theirs and hands them to their
   * sinks now; a sink that throws changes nothing.
   */
  deliverAuditRecords(): void {
    for (const { call, sinks } of this.#unaudited.splice(0)) {
      try {
        const record = auditRecordOf(call);
        for (const sink of sinks) {
          try {
            sink(record);
          } catch {}
        }
      } catch {}
    }
  }

  /** The registry is closed: the timer stops once no call is running. */
  close(): void {
    this.#deadlines.stopWhenIdle();
  }

  #callInfo(tool: string, args: Record<string, unknown>, options: ExecuteOptions): CallInfo {
    const { services } = this.#catalogue;
    const level = services.getPermissionLevel() ?? 'sandboxed';
    return { tool, arguments: args, cwd: services.getCwd(), level, ...(options.caller ? { caller: options.caller } : {}) };
  }

  /** Runs the beforeCall hooks in order: the arguments to go on with (rewritten ones validated again), or a refusal. */
  async #runBeforeCall(
    hooks: readonly BeforeCallHook[],
    call: CallInfo,
    parameters: SkillSpec['parameters'],
    options: ExecuteOptions,
    trail: CallTrail | undefined,
  ): Promise<Record<string, unknown> | ToolResult> {
    let args = call.arguments;
    for (const hook of hooks) {
      let answer: Awaited<ReturnType<BeforeCallHook>>;
      try {
        answer = await hook({ ...call, arguments: args }, { ...(options.signal ? { signal: options.signal } : {}) });
      } catch (error) {
        trail?.decide('deny', hookLabel(hook, 'beforeCall'), `failed: ${(error as Error)?.message ?? String(error)}`);
        return ToolResult.fail(
          `${call.tool} was denied: ${describeHook(hook, 'beforeCall')} failed (${(error as Error)?.message ?? String(error)}).`,
          'forbidden',
        );
      }
      if (answer?.decision === 'deny') {
        trail?.decide('deny', hookLabel(hook, 'beforeCall'), answer.reason);
        const reason = answer.reason ? `: ${answer.reason}` : '';
        return ToolResult.fail(`${call.tool} was denied by ${describeHook(hook, 'beforeCall')}${reason}.`, 'forbidden');
      }
      if (answer?.arguments !== undefined) {
        const validated = this.#validator.validate(call.tool, parameters, dropOptionalNulls(parameters, answer.arguments));
        const outcome = validated instanceof Promise ? await validated : validated;
        if (!outcome.valid) {
          trail?.decide('deny', 'validation');
          const message = `The arguments ${describeHook(hook, 'beforeCall')} gave are invalid: ${outcome.message}`;
          return ToolResult.fail(message, 'invalid_input', { data: { parameters: outcome.parameters } });
        }
        args = outcome.args;
      }
    }
    return args;
  }

  /** Runs the afterCall hooks in order, each seeing the result the one before left. */
  async #runAfterCall(hooks: readonly AfterCallHook[], call: CallInfo, result: ToolResult): Promise<ToolResult> {
    let current = result;
    for (const hook of hooks) {
      try {
        current = (await hook(call, current)) ?? current;
      } catch (error) {
        // What the hook was to redact must not get through.
        const reason = (error as Error)?.message ?? String(error);
        return ToolResult.fail(
          `The result of ${call.tool} is withheld: ${describeHook(hook, 'afterCall')} failed (${reason}).`,
          'execution_failed',
        );
      }
    }
    return current;
  }

  /** The hooks to run: the options' and the `callHooks` service's, joined again only when the service changed. */
  #currentHooks(): HookLists {
    const served = this.#catalogue.services.get('callHooks');
    if (served !== this.#hooks.served) this.#hooks = { served, lists: joinHooks(this.#ownHooks, served) };
    return this.#hooks.lists;
  }

  /**
   * The policy's decision past the gate: the first matching rule denies, asks or ends the search;
   * without an `ask` rule, a tool that requires confirmation asks. A refusal, or `undefined`.
   */
  async #decide(
    name: string,
    args: Record<string, unknown>,
    options: ExecuteOptions,
    trail: CallTrail | undefined,
  ): Promise<ToolResult | undefined> {
    const { services } = this.#catalogue;
    const permissions = services.getPermissions();
    let question: string | undefined;
    if (permissions?.rules?.length) {
      const found = findMatchingRule(permissions.rules, name, args, services.getCwd());
      const matched = found instanceof Promise ? await found : found;
      if (matched) {
        const { rule, index } = matched;
        trail?.decide(rule.decision, `rule ${index + 1}`, rule.reason);
        const because = `rule ${index + 1}${rule.reason ? `: ${rule.reason}` : ''}`;
        if (rule.decision === 'deny') return ToolResult.fail(`${name} was denied by ${because}.`, 'forbidden');
        if (rule.decision === 'ask') question = `run ${name} (${because})`;
      }
    }
    if (question === undefined && permissions?.tools[name]?.requiresConfirmation) {
      trail?.decide('ask', 'preset');
      question = `run ${name}`;
    }
    if (question === undefined) return undefined;
    const approved = await services.confirm({ tool: name, action: question, detail: JSON.stringify(args) }, options.confirm);
    if (trail) trail.confirmation = { given: approved, by: this.#confirmer(options) };
    return approved ? undefined : ToolResult.fail(`Running ${name} needs confirmation, and it was not given.`, 'forbidden');
  }

  /** `confirm` noting in the trail that the skill asked, and what the answer was. */
  #recording(confirm: ConfirmFunction, trail: CallTrail, options: ExecuteOptions): ConfirmFunction {
    const by = this.#confirmer(options);
    return async (request) => {
      const given = (await confirm(request)) === true;
      trail.decision = 'ask';
      trail.confirmation = { given, by };
      return given;
    };
  }

  /** Who answers a confirmation of this call (as `services.confirm` decides it). */
  #confirmer(options: ExecuteOptions): ConfirmedBy {
    const { services } = this.#catalogue;
    if (services.getPermissionLevel() === 'yolo') return 'yolo level';
    if (options.confirm) return 'caller';
    return services.has('confirm') ? 'confirm service' : 'nobody';
  }

  #run(
    name: string,
    skill: Skill,
    args: Record<string, unknown>,
    options: ExecuteOptions,
    trail: CallTrail | undefined,
  ): Promise<ToolResult> | ToolResult {
    const { signal, timeoutMs = this.#timeoutMs, maxTotalMs = this.#maxTotalMs } = options;
    checkTimeout(timeoutMs);
    checkTimeout(maxTotalMs, 'maxTotalMs');
    if (signal?.aborted) return ToolResult.fail(`${name} was cancelled before it started.`, 'cancelled');
    const confirm = options.confirm ?? this.#catalogue.services.get('confirm');
    const call = new RunningCall(
      name,
      { timeoutMs, maxTotalMs },
      options,
      trail && confirm ? this.#recording(confirm, trail, options) : confirm,
    );
    this.#deadlines.add(call);
    skill.execute(args, call).then(
      (value) => {
        this.#deadlines.cancel(call);
        call.finish(value);
      },
      (error: unknown) => {
        this.#deadlines.cancel(call);
        call.fail(error);
      },
    );
    return call.result;
  }
}
