import {
  expectOption,
  findToolRefusal,
  isPositiveNumber,
  type ServiceContainer,
  type Skill,
  type SkillContext,
  type SkillSpec,
  ToolResult,
} from '@nexus/core';
import { DeadlineTimer } from './deadline-timer.js';
import { dropOptionalNulls } from './drop-optional-nulls.js';
import { ParameterValidator } from './parameter-validator.js';
import { RunningCall } from './running-call.js';
import type { CatalogueEntry } from './skill-catalogue.js';
import { findMatchingRule } from './tool-rules.js';

/** Time limit of a call when neither the registry nor the call sets one: a little over `sleep`'s maximum. */
export const DEFAULT_EXECUTION_TIMEOUT_MS = 3_660_000;

/** Options of a `SkillRegistry`: the time limits of its pipeline. */
export interface SkillRegistryOptions {
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
 * The one way a call reaches a skill: look-up → permission gate → validation → confirmation where
 * the policy asks → the skill, with the caller's signal, a time limit and the caller's `confirm` →
 * anything thrown turned into a {@link ToolResult}. Policy is decided here, once, for every caller.
 */
export class ExecutePipeline {
  readonly #catalogue: PipelineCatalogue;
  readonly #validator = new ParameterValidator();
  readonly #timeoutMs: number;
  readonly #maxTotalMs: number;
  readonly #deadlines = new DeadlineTimer();

  constructor(catalogue: PipelineCatalogue, options: SkillRegistryOptions = {}) {
    const { timeoutMs = DEFAULT_EXECUTION_TIMEOUT_MS, maxTotalMs = DEFAULT_EXECUTION_TIMEOUT_MS } = options;
    this.#timeoutMs = checkTimeout(timeoutMs);
    this.#maxTotalMs = checkTimeout(maxTotalMs, 'maxTotalMs');
    this.#catalogue = catalogue;
  }

  /** Runs a tool through the pipeline; never throws. */
  async execute(name: string, args: Record<string, unknown>, options: ExecuteOptions): Promise<ToolResult> {
    const catalogue = this.#catalogue;
    try {
      const refreshing = catalogue.refreshFor(name);
      if (refreshing) await refreshing;
      const entry = catalogue.entry(name);
      if (!entry) {
        return ToolResult.fail(`Unknown tool "${name}". Available tools: ${catalogue.names().join(', ') || 'none'}.`, 'not_found');
      }
      const refusal = this.#gate(entry.spec);
      if (refusal) return refusal;
      const { parameters } = entry.spec;
      const validated = this.#validator.validate(name, parameters, dropOptionalNulls(parameters, args));
      const outcome = validated instanceof Promise ? await validated : validated;
      if (!outcome.valid) return ToolResult.fail(outcome.message, 'invalid_input', { data: { parameters: outcome.parameters } });
      const refused = await this.#decide(name, outcome.args, options);
      if (refused) return refused;
      return await this.#run(name, catalogue.instanceOf(entry), outcome.args, options);
    } catch (error) {
      return ToolResult.fromError(error);
    }
  }

  /** The registry is closed: the timer stops once no call is running. */
  close(): void {
    this.#deadlines.stopWhenIdle();
  }

  #gate(spec: SkillSpec): ToolResult | undefined {
    const refusal = findToolRefusal(this.#catalogue.services.getPermissions(), spec.name, spec);
    return refusal === undefined ? undefined : ToolResult.fail(refusal, 'forbidden');
  }

  /**
   * The policy's decision past the gate: the first matching rule denies, asks or ends the search;
   * without an `ask` rule, a tool that requires confirmation asks. A refusal, or `undefined`.
   */
  async #decide(name: string, args: Record<string, unknown>, options: ExecuteOptions): Promise<ToolResult | undefined> {
    const { services } = this.#catalogue;
    const permissions = services.getPermissions();
    let question: string | undefined;
    if (permissions?.rules?.length) {
      const matched = await findMatchingRule(permissions.rules, name, args, services.getCwd());
      const because = matched && `rule ${matched.index + 1}${matched.rule.reason ? `: ${matched.rule.reason}` : ''}`;
      if (matched?.rule.decision === 'deny') return ToolResult.fail(`${name} was denied by ${because}.`, 'forbidden');
      if (matched?.rule.decision === 'ask') question = `run ${name} (${because})`;
    }
    if (question === undefined && permissions?.tools[name]?.requiresConfirmation) question = `run ${name}`;
    if (question === undefined) return undefined;
    const approved = await services.confirm({ tool: name, action: question, detail: JSON.stringify(args) }, options.confirm);
    return approved ? undefined : ToolResult.fail(`Running ${name} needs confirmation, and it was not given.`, 'forbidden');
  }

  #run(name: string, skill: Skill, args: Record<string, unknown>, options: ExecuteOptions): Promise<ToolResult> | ToolResult {
    const { signal, timeoutMs = this.#timeoutMs, maxTotalMs = this.#maxTotalMs } = options;
    checkTimeout(timeoutMs);
    checkTimeout(maxTotalMs, 'maxTotalMs');
    if (signal?.aborted) return ToolResult.fail(`${name} was cancelled before it started.`, 'cancelled');
    const call = new RunningCall(name, { timeoutMs, maxTotalMs }, options, options.confirm ?? this.#catalogue.services.get('confirm'));
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
