import {
  type AgentPermissions,
  ConfigError,
  type FamilyDocuments,
  isToolEnabled,
  type ServiceContainer,
  type Skill,
  type SkillFactory,
  type SkillFamily,
  type SkillMetadata,
  SkillNotFoundError,
  type SkillSpec,
  validateToolName,
} from '@nexus/core';
import { type ChangingSkillFamily, isChangingFamily, type RegistryChange } from './changing-family.js';
import { checkSchemaShape } from './schema-shape.js';
import { type DefinitionFormat, type ToolDefinitionByFormat, type ToolDefinitionOptions, toToolDefinition } from './tool-definitions.js';

/** Options of {@link SkillCatalogue.getDefinitions}. */
export interface DefinitionOptions<F extends DefinitionFormat> extends ToolDefinitionOptions {
  /** Wire format (default `openai`). */
  format?: F;
}

/** A registered skill: its spec, and its instance once built (once, on first use). */
export interface CatalogueEntry {
  readonly spec: SkillSpec;
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

/** Throws a {@link ConfigError} for a spec the registry cannot hold: a bad name, no description or factory, an invalid schema, an outputSchema without an object root. */
function checkSpec(spec: SkillSpec): void {
  const { name, description, parameters, factory } = spec;
  try {
    validateToolName(name);
  } catch (error) {
    throw new ConfigError((error as Error).message, { cause: error });
  }
  if (typeof description !== 'string' || description === '') throw new ConfigError(`Skill "${name}" needs a description.`);
  if (typeof factory !== 'function') throw new ConfigError(`Skill "${name}" needs a factory function.`);
  checkSchemaShape(name, parameters);
  if (spec.outputSchema !== undefined && spec.outputSchema?.type !== 'object') {
    throw new ConfigError(
      `Skill "${name}" declares an outputSchema whose root is not \`type: "object"\`; MCP structured content is an object.`,
    );
  }
}

/**
 * The skills a registry holds: registration of skills and families, the changing families it
 * follows, the changes it tells listeners of, look-ups (instantiating each skill once, on first
 * use) and tool definitions (instantiating nothing). Running a call is the pipeline's job.
 */
export class SkillCatalogue {
  /** The services skills are built with. */
  readonly services: ServiceContainer;
  readonly #entries = new Map<string, CatalogueEntry>();
  /** Changing families in use, with the names of the skills each registered. */
  readonly #changing = new Map<ChangingSkillFamily, Set<string>>();
  /** What stops following each changing family in use. */
  readonly #unfollow = new Map<ChangingSkillFamily, () => void>();
  #closed = false;
  /** The changing family each of its skills came from. */
  readonly #owners = new Map<string, ChangingSkillFamily>();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  readonly #documents: FamilyDocuments[] = [];
  #version = 0;

  constructor(services: ServiceContainer) {
    this.services = services;
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
    let entry: CatalogueEntry;
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
    const { name } = entry.spec;
    checkSpec(entry.spec);
    if (this.#entries.has(name)) throw new ConfigError(`A skill named "${name}" is already registered.`);
    this.#entries.set(name, entry);
    this.#emit({ added: [name], removed: [], changed: [] });
    return this;
  }

  /**
   * Registers every skill of each family, and keeps the {@link documents} it offers. A
   * {@link ChangingSkillFamily} is followed from then on:
   * when it changes, its skills are added, replaced and removed to match (all or none: new skills
   * that are invalid or take another family's name make the family's listener throw a
   * {@link ConfigError}, and nothing changes). Once the registry is {@link close}d, a changing
   * family's skills are registered as they are, and not followed.
   */
  use(...families: SkillFamily[]): this {
    for (const family of families) {
      const specs = [...family.skills];
      for (const spec of specs) checkSpec(spec);
      const names = specs.map((spec) => spec.name);
      const taken = names.find((name, index) => this.#entries.has(name) || names.indexOf(name) !== index);
      if (taken !== undefined) throw new ConfigError(`A skill named "${taken}" is already registered.`);
      for (const spec of specs) this.#entries.set(spec.name, { spec });
      if (family.documents && !this.#documents.includes(family.documents)) this.#documents.push(family.documents);
      if (isChangingFamily(family) && !this.#closed) {
        this.#changing.set(family, new Set(names));
        for (const name of names) this.#owners.set(name, family);
        if (!this.#unfollow.has(family))
          this.#unfollow.set(
            family,
            family.onChange(() => this.#follow(family)),
          );
      }
      if (names.length > 0) this.#emit({ added: names, removed: [], changed: [] });
    }
    return this;
  }

  /**
   * Replaces the skill of the same name with `spec` (or adds it): definitions and new calls use the
   * new version, calls already running finish on the old one. Throws a {@link ConfigError} for an
   * invalid spec.
   */
  replace(spec: SkillSpec): this {
    checkSpec(spec);
    const existed = this.#entries.has(spec.name);
    this.#release(spec.name);
    this.#entries.set(spec.name, { spec });
    this.#emit({ added: existed ? [] : [spec.name], removed: [], changed: existed ? [spec.name] : [] });
    return this;
  }

  /** Removes a skill (calls already running finish); `false` when none had that name. */
  unregister(name: string): boolean {
    if (!this.#entries.delete(name)) return false;
    this.#release(name);
    this.#emit({ added: [], removed: [name], changed: [] });
    return true;
  }

  /**
   * Calls `listener` after each change of the registered skills — a registration, a replacement, a
   * removal, a changing family's update — with what changed; returns a function that stops it.
   */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A number that grows with every change of the registered skills: compare two readings to know whether anything changed between them. */
  get version(): number {
    return this.#version;
  }

  /**
   * Asks every changing family in use to bring its skills up to date (skill packages look at their
   * files); call it before listing tools. `execute` does the same for the family of the tool called.
   */
  async refresh(): Promise<void> {
    await Promise.all([...this.#changing.keys()].map((family) => family.refresh?.()));
  }

  /**
   * Stops following the changing families in use: each forgets the registry (a family shared by
   * many short-lived registries, such as an agent server's, holds none of them after it), their
   * changes no longer reach the registry or its `onChange` listeners, and they are no longer asked
   * to refresh. The registry keeps the skills it has, and calls already running finish. Call it
   * when the registry's agent is gone; `using` does it too. Calling it again does nothing.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const unfollow of this.#unfollow.values()) unfollow();
    this.#unfollow.clear();
    this.#changing.clear();
    this.#owners.clear();
  }

  /** {@link close}: `using registry = new SkillRegistry(…)` stops following its families at the end of the block. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** The instructions and files offered by the families in use (`SkillFamily.documents`), in the order they were used. */
  get documents(): readonly FamilyDocuments[] {
    return this.#documents;
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
    return entry && this.instanceOf(entry);
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

  /** Tool definitions of the skills `permissions` enables (disabled, above-level and, under a read-only policy, writing skills left out). */
  getDefinitionsForPermissions<F extends DefinitionFormat = 'openai'>(
    permissions: AgentPermissions,
    options: DefinitionOptions<F> = {},
  ): ToolDefinitionByFormat[F][] {
    const format = (options.format ?? 'openai') as F;
    return this.list()
      .filter((spec) => isToolEnabled(permissions, spec.name, spec))
      .map((spec) => toToolDefinition(spec, format, options));
  }

  /** Lets the changing families bring the skills up to date before a call of `name`; `undefined` when none is followed. */
  protected refreshFor(name: string): Promise<void> | undefined {
    return this.#changing.size > 0 ? this.#refreshFamilyOf(name) : undefined;
  }

  /** The entry of `name` as it is now: a call keeps it, so it finishes on the version it found. */
  protected entry(name: string): CatalogueEntry | undefined {
    return this.#entries.get(name);
  }

  /** The entry's skill, built with the services on first use. */
  protected instanceOf(entry: CatalogueEntry): Skill {
    entry.instance ??= entry.spec.factory(this.services);
    return entry.instance;
  }

  /** Lets the changing family of `name` (every changing family, for a name none has) bring its skills up to date first. */
  async #refreshFamilyOf(name: string): Promise<void> {
    const owner = this.#owners.get(name);
    if (owner) await owner.refresh?.(name);
    else if (!this.#entries.has(name)) await Promise.all([...this.#changing.keys()].map((family) => family.refresh?.(name)));
  }

  /** A changing family's skill stops being its: it was removed or replaced from outside. */
  #release(name: string): void {
    const owner = this.#owners.get(name);
    if (!owner) return;
    this.#owners.delete(name);
    this.#changing.get(owner)?.delete(name);
  }

  /** Brings the registry in line with a changing family's current skills, in one change. */
  #follow(family: ChangingSkillFamily): void {
    // A family telling a copy of its listeners may still reach a registry closed during that round.
    if (this.#closed) return;
    const owned = this.#changing.get(family) ?? new Set<string>();
    const specs = new Map(family.skills.map((spec) => [spec.name, spec]));
    for (const spec of specs.values()) {
      checkSpec(spec);
      if (this.#entries.has(spec.name) && !owned.has(spec.name))
        throw new ConfigError(`A skill named "${spec.name}" is already registered by another family.`);
    }
    const change = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
    for (const name of owned) {
      if (specs.has(name)) continue;
      this.#entries.delete(name);
      this.#owners.delete(name);
      change.removed.push(name);
    }
    for (const [name, spec] of specs) {
      const entry = this.#entries.get(name);
      if (entry?.spec === spec) continue;
      (entry ? change.changed : change.added).push(name);
      this.#entries.set(name, { spec });
      this.#owners.set(name, family);
    }
    this.#changing.set(family, new Set(specs.keys()));
    if (change.added.length + change.removed.length + change.changed.length > 0) this.#emit(change);
  }

  #emit(change: RegistryChange): void {
    this.#version++;
    for (const listener of this.#listeners) listener(change);
  }
}
