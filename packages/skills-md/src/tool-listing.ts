import type { FamilyDocuments, SkillSpec } from '@nexus/core';
import { type CommandRuntime, commandSkill } from './command-skill.js';
import { type GhostRunner, ghostSkill } from './ghost-skill.js';
import type { IndexedSkillPackage } from './package-index.js';
import { diagnosticAt, FILE_START, type SkillDiagnostic } from './skill-diagnostic.js';
import { SKILL_TOOL_NAME, skillInstructionsSkill } from './skill-instructions-skill.js';
import type { SkillPackageState, SkillPackagesFamily } from './skill-library.js';
import { SKILL_SEARCH_TOOL_NAME } from './skill-search.js';
import { SKILLS_FAMILY_NAME } from './skills-md-family.js';

/** What {@link ToolListing} is built with. */
export interface ToolListingOptions {
  /** Most tools listed, counting `reservedToolNames`. */
  readonly maxTools: number;
  /** Names other families use: never listed, and counted against `maxTools`. */
  readonly reservedToolNames: ReadonlySet<string>;
  readonly runtime: CommandRuntime;
  /** The `skill_search` tool. */
  readonly searchSpec: SkillSpec;
  /** Runs a ghost's tool for real. */
  readonly runGhost: GhostRunner;
  /** The family's `refresh`. */
  readonly refresh: SkillPackagesFamily['refresh'];
  /** Where a problem of the listing itself is reported. */
  readonly problemPath: string;
  /** The `skill` tool narrowed an agent's tools or lifted that: its listing changed (see {@link ToolListing.renewInstructions}). */
  readonly scopeChanged: () => void;
  /** The family's documents. */
  readonly documents: FamilyDocuments;
}

/** The packages a listing is made of, from the library's coordinator. */
export interface ListingInput {
  /** The packages in effect, in root order. */
  readonly active: readonly IndexedSkillPackage[];
  /** Loaded package folders, least recently used first. */
  readonly recent: readonly string[];
  /** The package each tool name belongs to. */
  readonly byTool: ReadonlyMap<string, IndexedSkillPackage>;
  /** Packages in the order they get room. */
  readonly byPriority: (records: readonly IndexedSkillPackage[]) => IndexedSkillPackage[];
}

function sameMembers(before: readonly SkillSpec[], after: readonly SkillSpec[]): boolean {
  if (before.length !== after.length) return false;
  const known = new Set(before);
  return after.every((spec) => known.has(spec));
}

/**
 * A library's family and the tools it lists: `skill` and `skill_search`, the loaded packages'
 * tools, ghosts of the others, within the tool budget; how each package is offered; and the
 * family's listeners, told when the tools changed.
 */
export class ToolListing {
  readonly #options: ToolListingOptions;
  #skills: SkillSpec[] = [];
  #states = new Map<string, SkillPackageState>();
  #problems: SkillDiagnostic[] = [];
  readonly #fullSpecs = new WeakMap<IndexedSkillPackage, SkillSpec[]>();
  readonly #ghostSpecs = new WeakMap<IndexedSkillPackage, SkillSpec[]>();
  #instructions: { key: string; spec: SkillSpec } | undefined;
  readonly #listeners = new Set<() => void>();

  /** The family to `use`; its `skills` is always the current listing. */
  readonly family: SkillPackagesFamily;

  constructor(options: ToolListingOptions) {
    this.#options = options;
    this.family = {
      name: SKILLS_FAMILY_NAME,
      skills: [],
      onChange: (listener) => {
        this.#listeners.add(listener);
        return () => this.#listeners.delete(listener);
      },
      refresh: options.refresh,
      documents: options.documents,
    };
  }

  /** How the package in `folder` is offered. */
  stateOf(folder: string): SkillPackageState {
    return this.#states.get(folder) ?? 'unlisted';
  }

  /** Problems of the last listing: tool names already taken, listeners that failed. */
  get problems(): readonly SkillDiagnostic[] {
    return this.#problems;
  }

  /** The loaded tool `tool` of `record`, when its package is listed as loaded. */
  loadedSpec(record: IndexedSkillPackage, tool: string): SkillSpec | undefined {
    if (this.stateOf(record.folder) !== 'loaded') return undefined;
    return this.#specsOf(record, true).find((candidate) => candidate.name === tool);
  }

  /**
   * Lists the family's skills: `skill` and `skill_search`, the loaded packages' tools (most
   * recently used first), then ghosts of the others in priority order, while fewer than `maxTools`
   * tools (counting other families') are listed. Unchanged packages keep their spec objects, so a
   * registry sees only what really changed; with `notify`, the listeners hear of a change.
   */
  build({ active, recent, byTool, byPriority }: ListingInput, notify: boolean): void {
    const { maxTools, reservedToolNames } = this.#options;
    const loaded = new Set(recent);
    const order = [
      ...[...recent].reverse().flatMap((folder) => active.filter((record) => record.folder === folder)),
      ...byPriority(active.filter((record) => !loaded.has(record.folder))),
    ];
    const budget = maxTools - reservedToolNames.size - (active.length > 0 ? 2 : 0);
    const listed: SkillSpec[] = [];
    const states = new Map<string, SkillPackageState>();
    const problems: SkillDiagnostic[] = [];
    for (const record of order) {
      const full = loaded.has(record.folder) && record.loaded !== undefined;
      const specs = this.#specsOf(record, full).filter((spec) => {
        const reserved = reservedToolNames.has(spec.name) || spec.name === SKILL_TOOL_NAME || spec.name === SKILL_SEARCH_TOOL_NAME;
        if (!reserved && byTool.get(spec.name) === record) return true;
        problems.push(
          diagnosticAt('error', record.skillFile, FILE_START, `the tool name "${spec.name}" is already taken; that command is left out`),
        );
        return false;
      });
      if (specs.length === 0 || listed.length + specs.length > budget) {
        states.set(record.folder, 'unlisted');
        continue;
      }
      listed.push(...specs);
      states.set(record.folder, full ? 'loaded' : 'ghost');
    }
    const skills = active.length > 0 ? [this.#instructionsSpec(active), this.#options.searchSpec, ...listed] : [];
    this.#states = states;
    this.#problems = problems;
    if (!sameMembers(this.#skills, skills)) {
      this.#skills = skills;
      (this.family as { skills: readonly SkillSpec[] }).skills = skills;
      if (notify) this.#notify();
    }
  }

  /**
   * Makes the next listing carry a new `skill` tool of the same content, so the registries following
   * the family see a change and list their tools again — under their agent's narrowed policy.
   */
  renewInstructions(): void {
    this.#instructions = undefined;
  }

  /** Stops telling the family's listeners. */
  close(): void {
    this.#listeners.clear();
  }

  #specsOf(record: IndexedSkillPackage, full: boolean): SkillSpec[] {
    const cache = full ? this.#fullSpecs : this.#ghostSpecs;
    let specs = cache.get(record);
    if (!specs) {
      const skillPackage = record.loaded;
      const { runtime, runGhost } = this.#options;
      specs =
        full && skillPackage
          ? skillPackage.trusted
            ? skillPackage.commands.map((command) => commandSkill({ skillPackage, command, runtime }))
            : []
          : record.tools.map((tool) => ghostSkill(tool, `${record.description} (tool of the ${record.name} skill)`, runGhost));
      cache.set(record, specs);
    }
    return specs;
  }

  #instructionsSpec(active: readonly IndexedSkillPackage[]): SkillSpec {
    const key = JSON.stringify(active.map((record) => [record.name, record.folderName, record.description, record.trust, record.tools]));
    if (this.#instructions?.key !== key)
      this.#instructions = { key, spec: skillInstructionsSkill(active, { onScopeChange: this.#options.scopeChanged }) };
    return this.#instructions.spec;
  }

  #notify(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#problems.push(
          diagnosticAt('error', this.#options.problemPath, FILE_START, `the tool list could not be updated: ${(error as Error).message}`),
        );
      }
    }
  }
}
