import {
  type AgentPermissions,
  ConfigError,
  expectOption,
  findToolRefusal,
  isPositiveNumber,
  isToolEnabled,
  ServiceContainer,
  type Skill,
  type SkillContext,
  type SkillFactory,
  type SkillFamily,
  type SkillMetadata,
  SkillNotFoundError,
  type SkillSpec,
  ToolResult,
  validateToolName,
} from '@nexus/core';
import { DeadlineTimer } from './deadline-timer.js';
import { dropOptionalNulls } from './drop-optional-nulls.js';
import { ParameterValidator } from './parameter-validator.js';
import { RunningCall } from './running-call.js';
import { checkSchemaShape } from './schema-shape.js';
import { type DefinitionFormat, type ToolDefinitionByFormat, type ToolDefinitionOptions, toToolDefinition } from './tool-definitions.js';

/** Time limit of a call when neither the registry nor the call sets one: a little over `sleep`'s maximum. */
export const DEFAULT_EXECUTION_TIMEOUT_MS = 3_660_000;

/** Options of a {@link SkillRegistry}. */
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

/** Options of {@link SkillRegistry.execute}. */
export interface ExecuteOptions extends Omit<SkillContext, 'extendDeadline'> {
  /** Time limit of this call, in ms; overrides the registry's. */
  timeoutMs?: number;
  /** How far the skill's progress may extend this call's time limit, in ms from its start; overrides the registry's. */
  maxTotalMs?: number;
}

/** Options of {@link SkillRegistry.getDefinitions}. */
export interface DefinitionOptions<F extends DefinitionFormat> extends ToolDefinitionOptions {
  /** Wire format (default `openai`). */
  format?: F;
}

interface Entry {
  spec: SkillSpec;
  instance?: Skill;
}

function isSkill(value: unknown): value is Skill {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Skill).execute === 'function' &&
    typeof (value as Skill).name === 'string'
  );
}

function checkTimeout(timeoutMs: unknown, option: 'timeoutMs' | 'maxTotalMs' = 'timeoutMs'): number {
  expectOption(isPositiveNumber(timeoutMs), option, 'a positive number of milliseconds', timeoutMs);
  return timeoutMs as number;
}

/**
 * Holds an agent's skills: registers factories and families, instantiates each skill lazily
 * (once, on first use), produces tool definitions without instantiating anything, and runs every
 * call through one pipeline — look-up, permission gate, validation, confirmation, the skill with
 * cancellation and a time limit — that always returns a {@link ToolResult}.
 */
export class SkillRegistry {
  /** The services skills are built with. */
  readonly services: ServiceContainer;
  readonly #entries = new Map<string, Entry>();
  readonly #validator = new ParameterValidator();
  readonly #timeoutMs: number;
  readonly #maxTotalMs: number;
  readonly #deadlines = new DeadlineTimer();

  constructor(services: ServiceContainer = new ServiceContainer(), options: SkillRegistryOptions = {}) {
    const { timeoutMs = DEFAULT_EXECUTION_TIMEOUT_MS, maxTotalMs = DEFAULT_EXECUTION_TIMEOUT_MS } = options;
    this.services = services;
    this.#timeoutMs = checkTimeout(timeoutMs);
    this.#maxTotalMs = checkTimeout(maxTotalMs, 'maxTotalMs');
  }

  /**
   * Registers a skill: a {@link SkillSpec}, a ready {@link Skill} instance, or a name, a factory
   * and the metadata needed for definitions. Throws a {@link ConfigError} for an invalid name,
   * a duplicate, or an invalid parameters schema.
   */
  register(spec: SkillSpec): this;
  register(skill: Skill, metadata?: Partial<SkillMetadata>): this;
  register(name: string, factory: SkillFactory, metadata: SkillMetadata): this;
  register(first: SkillSpec | Skill | string, second?: SkillFactory | Partial<SkillMetadata>, third?: SkillMetadata): this {
    let entry: Entry;
    if (typeof first === 'string') {
      if (typeof second !== 'function' || !third)
        throw new ConfigError(`register("${first}") needs a factory and metadata ({ description, parameters }).`);
      entry = { spec: { ...third, name: first, factory: second } };
    } else if (isSkill(first)) {
      const skill = first;
      const metadata = (second ?? {}) as Partial<SkillMetadata>;
      entry = {
        spec: { description: skill.description, parameters: skill.parameters, ...metadata, name: skill.name, factory: () => skill },
        instance: skill,
      };
    } else {
      entry = { spec: first };
    }
    const { name, description, parameters, factory } = entry.spec;
    try {
      validateToolName(name);
    } catch (error) {
      throw new ConfigError((error as Error).message, { cause: error });
    }
    if (this.#entries.has(name)) throw new ConfigError(`A skill named "${name}" is already registered.`);
    if (typeof description !== 'string' || description === '') throw new ConfigError(`Skill "${name}" needs a description.`);
    if (typeof factory !== 'function') throw new ConfigError(`Skill "${name}" needs a factory function.`);
    checkSchemaShape(name, parameters);
    this.#entries.set(name, entry);
    return this;
  }

  /** Registers every skill of each family. */
  use(...families: SkillFamily[]): this {
    for (const family of families) for (const spec of family.skills) this.register(spec);
    return this;
  }

  /** Whether a skill of that name is registered. */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Registered names, in registration order. */
  get names(): string[] {
    return [...this.#entries.keys()];
  }

  /** Registered skills' metadata, in registration order (nothing is instantiated). */
  list(): SkillSpec[] {
    return [...this.#entries.values()].map((entry) => entry.spec);
  }

  /** The metadata of one skill, or `undefined`. */
  getSpec(name: string): SkillSpec | undefined {
    return this.#entries.get(name)?.spec;
  }

  /** The skill, instantiated on first request and cached; `undefined` when unknown. */
  get(name: string): Skill | undefined {
    const entry = this.#entries.get(name);
    if (!entry) return undefined;
    entry.instance ??= entry.spec.factory(this.services);
    return entry.instance;
  }

  /** Like {@link get}, but throws a {@link SkillNotFoundError} when unknown. */
  require(name: string): Skill {
    const skill = this.get(name);
    if (!skill) throw new SkillNotFoundError(name);
    return skill;
  }

  /**
   * Tool definitions of every registered skill, in the given format (default OpenAI); with
   * `strict: true`, in the provider's strict form wherever a tool's schema has one.
   */
  getDefinitions<F extends DefinitionFormat = 'openai'>(options: DefinitionOptions<F> = {}): ToolDefinitionByFormat[F][] {
    const format = (options.format ?? 'openai') as F;
    return this.list().map((spec) => toToolDefinition(spec, format, options));
  }

  /** Tool definitions of the skills `permissions` enables (disabled and above-level skills left out). */
  getDefinitionsForPermissions<F extends DefinitionFormat = 'openai'>(
    permissions: AgentPermissions,
    options: DefinitionOptions<F> = {},
  ): ToolDefinitionByFormat[F][] {
    const format = (options.format ?? 'openai') as F;
    return this.list()
      .filter((spec) => isToolEnabled(permissions, spec.name, spec.minimumLevel))
      .map((spec) => toToolDefinition(spec, format, options));
  }

  /**
   * Runs a tool through the pipeline: look-up → permission gate → validation (`null` of an
   * optional parameter read as "not given", defaults, coercion, errors naming the parameter) →
   * confirmation where the policy asks → the skill, with the caller's `signal` and a time limit.
   * Never throws.
   */
  async execute(name: string, args: Record<string, unknown> = {}, options: ExecuteOptions = {}): Promise<ToolResult> {
    try {
      const entry = this.#entries.get(name);
      if (!entry) {
        return ToolResult.fail(`Unknown tool "${name}". Available tools: ${this.names.join(', ') || 'none'}.`, 'not_found');
      }
      const refusal = this.#gate(entry.spec);
      if (refusal) return refusal;
      const { parameters } = entry.spec;
      const validated = this.#validator.validate(name, parameters, dropOptionalNulls(parameters, args));
      const outcome = validated instanceof Promise ? await validated : validated;
      if (!outcome.valid) return ToolResult.fail(outcome.message, 'invalid_input', { data: { parameters: outcome.parameters } });
      if (this.services.getPermissions()?.tools[name]?.requiresConfirmation) {
        const approved = await this.services.confirm(
          { tool: name, action: `run ${name}`, detail: JSON.stringify(outcome.args) },
          options.confirm,
        );
        if (!approved) return ToolResult.fail(`Running ${name} needs confirmation, and it was not given.`, 'forbidden');
      }
      const skill = this.require(name);
      return await this.#run(name, skill, outcome.args, options);
    } catch (error) {
      return ToolResult.fromError(error);
    }
  }

  #gate(spec: SkillSpec): ToolResult | undefined {
    const refusal = findToolRefusal(this.services.getPermissions(), spec.name, spec.minimumLevel);
    return refusal === undefined ? undefined : ToolResult.fail(refusal, 'forbidden');
  }

  #run(name: string, skill: Skill, args: Record<string, unknown>, options: ExecuteOptions): Promise<ToolResult> | ToolResult {
    const { signal, timeoutMs = this.#timeoutMs, maxTotalMs = this.#maxTotalMs } = options;
    checkTimeout(timeoutMs);
    checkTimeout(maxTotalMs, 'maxTotalMs');
    if (signal?.aborted) return ToolResult.fail(`${name} was cancelled before it started.`, 'cancelled');
    const call = new RunningCall(name, { timeoutMs, maxTotalMs }, options);
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
