import { ServiceContainer, type ToolResult } from '@nexus/core';
import { type ExecuteOptions, ExecutePipeline, type SkillRegistryOptions } from './execute-pipeline.js';
import { SkillCatalogue } from './skill-catalogue.js';

/**
 * Holds an agent's skills: registers factories and families, instantiates each skill lazily
 * (once, on first use), produces tool definitions without instantiating anything, and runs every
 * call through one pipeline — look-up, permission gate, validation, confirmation, the skill with
 * cancellation and a time limit — that always returns a {@link ToolResult}.
 *
 * Skills can be replaced and removed while the registry is in use, and a `ChangingSkillFamily`
 * is followed as it changes; every change is one `RegistryChange` to `onChange` listeners. A
 * call runs on the version it found: one that started before a change finishes on the old skill.
 *
 * The catalogue (registration, families, changes, definitions) is {@link SkillCatalogue}; the
 * pipeline is {@link ExecutePipeline}.
 */
export class SkillRegistry extends SkillCatalogue {
  readonly #pipeline: ExecutePipeline;

  constructor(services: ServiceContainer = new ServiceContainer(), options: SkillRegistryOptions = {}) {
    super(services);
    this.#pipeline = new ExecutePipeline(
      {
        services,
        names: () => this.names,
        refreshFor: (name) => this.refreshFor(name),
        entry: (name) => this.entry(name),
        instanceOf: (entry) => this.instanceOf(entry),
      },
      options,
    );
  }

  /**
   * Runs a tool through the pipeline: look-up → permission gate → validation (`null` of an
   * optional parameter read as "not given", defaults, coercion, errors naming the parameter) →
   * `beforeCall` hooks → the policy's rules and confirmation where it asks → the skill, with the
   * caller's `signal` and a time limit → `afterCall` hooks; `onAudit` sinks get its record and an
   * OpenTelemetry SDK its span. Never throws.
   */
  execute(name: string, args: Record<string, unknown> = {}, options: ExecuteOptions = {}): Promise<ToolResult> {
    return this.#pipeline.execute(name, args, options);
  }

  /**
   * Hands the `onAudit` sinks the records of the calls that have ended now, not on the event loop's
   * next turn: for a caller that reads a call's record together with its result.
   */
  deliverAuditRecords(): void {
    this.#pipeline.deliverAuditRecords();
  }

  /** {@inheritDoc SkillCatalogue.close} The pipeline's timer stops once no call is running. */
  override close(): void {
    super.close();
    this.#pipeline.close();
  }
}
