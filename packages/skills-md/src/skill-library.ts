import { expectOption, type FamilyDocuments, type ServiceContainer, type SkillContext, type SkillFamily, ToolResult } from '@nexus/core';
import { ChangeWatch } from './change-watch.js';
import { DiagnosticReports } from './diagnostic-reports.js';
import {
  type LoadSettings,
  type LoadSkillPackagesOptions,
  normalizeOptions,
  offeredPackages,
  rootsOf,
  runtimeOf,
} from './load-skill-packages.js';
import { LoadSlots } from './load-slots.js';
import { packageDocuments } from './package-documents.js';
import type { IndexedSkillPackage } from './package-index.js';
import { PackageStore } from './package-store.js';
import { settleNames } from './settle-names.js';
import type { SkillDiagnostic } from './skill-diagnostic.js';
import type { SkillRoot } from './skill-locations.js';
import { SkillSearchIndex, type SkillSearchResult, skillSearchSkill } from './skill-search.js';
import { ToolListing } from './tool-listing.js';
import { readSkillUsage } from './usage-records.js';

/** How many packages are loaded at once by default (seed 004's `_max_loaded_skills`). */
export const DEFAULT_MAX_LOADED = 15;
/** The most tools a listing offers by default: OpenAI's limit per request. */
export const MAX_LISTED_TOOLS = 128;
/** How often, at most, files are checked before a call or a listing, by default. */
export const DEFAULT_CHECK_INTERVAL_MS = 100;

/** Options of {@link openSkillLibrary}: those of `loadSkillPackages`, and how many packages are loaded. */
export interface SkillLibraryOptions extends LoadSkillPackagesOptions {
  /** Most packages loaded at once — full schemas in the tool list — pinned ones included (default 15). */
  maxLoaded?: number;
  /** Names of packages loaded from the start and never unloaded. */
  pinned?: readonly string[];
  /** Most tools listed, counting `reservedToolNames` (default 128); packages past it are left out of the list, still callable by name. */
  maxTools?: number;
  /** Watch the roots and packages for changes (default `true`); without it, changes are seen at the checks before calls and listings. */
  watch?: boolean;
  /** Least time between two checks of the files before calls and listings, in ms (default 100). */
  checkIntervalMs?: number;
}

/** How a package is offered. */
export type SkillPackageState =
  /** Its tools are listed with their full schemas. */
  | 'loaded'
  /** Its tools are listed as ghosts: `[GHOST] …`, an open schema; a call loads it. */
  | 'ghost'
  /** Not listed (past `maxTools`, or untrusted); a call of one of its tools by name loads it, `skill_search` finds it. */
  | 'unlisted';

/** A package of a {@link SkillLibrary}. */
export interface SkillLibraryPackage {
  readonly name: string;
  readonly description: string;
  /** Real absolute path of its folder. */
  readonly folder: string;
  readonly root: SkillRoot;
  /** Whether its tools are offered (a user package, or a trusted and unchanged project package). */
  readonly trusted: boolean;
  readonly tools: readonly string[];
  readonly state: SkillPackageState;
  readonly pinned: boolean;
}

/**
 * The family of a library: `skills` is always the current listing, `onChange` says when it
 * changed, and `refresh` brings it up to date — the shape `SkillRegistry` follows (its
 * `ChangingSkillFamily`), so a registry that `use`s it keeps up by itself.
 */
export interface SkillPackagesFamily extends SkillFamily {
  /** Calls `listener` after `skills` changed; returns a function that stops it. */
  onChange(listener: () => void): () => void;
  /**
   * Checks the files (at most every `checkIntervalMs`, unless the watcher saw something) and, for
   * a tool of a package not loaded, loads that package, evicting the least recently used one.
   */
  refresh(tool?: string): Promise<void>;
  /**
   * The instructions and `references/` / `assets/` files of the trusted packages in effect that the
   * model may use, read without the `skill` tool's side effects (`@nexus/mcp` serves them as prompts
   * and resources); its `onChange` listeners hear each change of the packages.
   */
  readonly documents: FamilyDocuments;
}

/** Skill packages that stay current while they are in use (§9): hot reload, ghost tools, LRU loading and search. */
export interface SkillLibrary extends AsyncDisposable {
  /** The family to `use`: the loaded packages' tools, ghosts of the others, `skill` and `skill_search`. */
  readonly family: SkillPackagesFamily;
  /** The packages in effect now, in root order. */
  readonly packages: readonly SkillLibraryPackage[];
  /** Every current problem, warning and note: of the scan, of each package, and of changes that did not load. */
  readonly diagnostics: readonly SkillDiagnostic[];
  /** Calls `listener` with each new error after the start: a change that did not load, a package that turned out broken. */
  onDiagnostic(listener: (diagnostic: SkillDiagnostic) => void): () => void;
  /** The packages matching `query` (name, keywords, intents, description; prefix and fuzzy), best first. */
  search(query: string, limit?: number): Promise<SkillSearchResult[]>;
  /** Checks every file now, whatever the interval. */
  refresh(): Promise<void>;
  /** Stops watching. */
  close(): Promise<void>;
}

/**
 * The library's coordinator: the package store says what is on disk, the load slots which
 * packages are loaded, the listing what the family offers; this class runs checks and loads one
 * at a time and keeps the packages in effect (names settled across roots) that the others share.
 */
class Library {
  readonly #settings: LoadSettings;
  readonly #roots: readonly SkillRoot[];
  readonly #store: PackageStore;
  readonly #slots: LoadSlots;
  readonly #listing: ToolListing;
  readonly #changes: ChangeWatch;
  readonly #reports = new DiagnosticReports();
  readonly #search = new SkillSearchIndex();

  #active: IndexedSkillPackage[] = [];
  /** The packages in effect that the family offers (for the model, not those it may not invoke). */
  #offered: IndexedSkillPackage[] = [];
  /** Problems of settling names across roots. */
  #namingDiagnostics: SkillDiagnostic[] = [];
  #byTool = new Map<string, IndexedSkillPackage>();
  readonly #documentListeners = new Set<() => void>();
  #queue: Promise<void> = Promise.resolve();

  constructor(options: SkillLibraryOptions) {
    const settings = normalizeOptions(options);
    const roots = rootsOf(settings);
    const { maxLoaded = DEFAULT_MAX_LOADED, pinned = [], maxTools = MAX_LISTED_TOOLS, watch = true } = options;
    const { checkIntervalMs = DEFAULT_CHECK_INTERVAL_MS } = options;
    expectOption(Number.isInteger(maxLoaded) && maxLoaded > 0, 'maxLoaded', 'a positive integer', maxLoaded);
    expectOption(Array.isArray(pinned) && pinned.every((name) => typeof name === 'string'), 'pinned', 'an array of skill names', pinned);
    expectOption(Number.isInteger(maxTools) && maxTools > 0, 'maxTools', 'a positive integer', maxTools);
    expectOption(typeof watch === 'boolean', 'watch', 'a boolean', watch);
    expectOption(
      typeof checkIntervalMs === 'number' && checkIntervalMs >= 0,
      'checkIntervalMs',
      'a number of milliseconds',
      checkIntervalMs,
    );
    this.#settings = settings;
    this.#roots = roots;
    this.#store = new PackageStore(settings, roots);
    this.#slots = new LoadSlots(maxLoaded, pinned);
    this.#listing = new ToolListing({
      maxTools,
      reservedToolNames: settings.reservedToolNames,
      runtime: runtimeOf(settings),
      searchSpec: skillSearchSkill((query, limit) => this.search(query, limit)),
      runGhost: (tool, args, context, services) => this.#runGhost(tool, args, context, services),
      refresh: (tool) => this.#serially(() => this.#refresh(tool, false)),
      problemPath: roots[0]?.path ?? settings.cwd,
      // A skill narrowed an agent's tools (allowed-tools): registries list again, each under its own policy.
      scopeChanged: () => {
        this.#listing.renewInstructions();
        this.#build(true);
      },
      documents: packageDocuments({
        packages: () => this.#active,
        onChange: (listener) => {
          this.#documentListeners.add(listener);
          return () => this.#documentListeners.delete(listener);
        },
      }),
    });
    this.#changes = new ChangeWatch({
      watch,
      intervalMs: checkIntervalMs,
      check: () => void this.#serially(() => this.#refresh(undefined, false)).catch(() => undefined),
    });
  }

  /**
   * Indexes every package and lists them all as ghosts; the packages to load first — pinned, then
   * the most used, then by name, up to `maxLoaded` — are loaded right after, in the background
   * (`refresh`, which a registry runs before listing and calling, waits for them).
   */
  async start(): Promise<void> {
    const [, usage] = await Promise.all([this.#store.open(), readSkillUsage(this.#settings.stateDirectory)]);
    this.#slots.usage = usage;
    this.#settle();
    this.#build(false);
    this.#reports.know(this.diagnostics);
    this.#follow();
    void this.#serially(async () => {
      await this.#fillFreeSlots();
      this.#build(true);
    }).catch(() => undefined);
  }

  // --- what the outside sees ---

  get family(): SkillPackagesFamily {
    return this.#listing.family;
  }

  get packages(): SkillLibraryPackage[] {
    return this.#active.map((record) => ({
      name: record.name,
      description: record.description,
      folder: record.folder,
      root: record.root,
      trusted: record.trusted,
      tools: record.tools,
      state: this.#listing.stateOf(record.folder),
      pinned: this.#slots.isPinned(record.name),
    }));
  }

  get diagnostics(): SkillDiagnostic[] {
    return [...this.#store.scanDiagnostics, ...this.#namingDiagnostics, ...this.#listing.problems, ...this.#store.reloadDiagnostics];
  }

  onDiagnostic(listener: (diagnostic: SkillDiagnostic) => void): () => void {
    return this.#reports.listen(listener);
  }

  async search(query: string, limit = 5): Promise<SkillSearchResult[]> {
    const byFolder = new Map(this.#offered.map((record) => [record.folder, record]));
    return (await this.#search.search(query, limit)).flatMap(({ folder, score }) => {
      const record = byFolder.get(folder);
      if (!record) return [];
      const loaded = this.#listing.stateOf(folder) === 'loaded';
      return [{ skill: record.name, tools: [...record.tools], description: record.description, score, loaded }];
    });
  }

  refresh(): Promise<void> {
    return this.#serially(() => this.#refresh(undefined, true));
  }

  close(): void {
    this.#changes.close();
    this.#listing.close();
    this.#documentListeners.clear();
    this.#reports.close();
  }

  // --- checking and loading, one at a time ---

  /** Runs `work` after every earlier check or load: one at a time, so two never load the same package. */
  #serially(work: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Checks the files; then, for a tool of a package not loaded, loads that package. */
  async #refresh(tool: string | undefined, force: boolean): Promise<void> {
    await this.#check(tool, force);
    if (tool === undefined) return;
    const record = this.#byTool.get(tool);
    if (!record || this.#slots.touch(record.folder)) return;
    await this.#admit(record);
  }

  /**
   * Looks for changes: before a call of a known tool, that tool's package and the folders packages
   * come and go in; otherwise (a listing, an unknown tool, the watcher's news) every package.
   */
  async #check(tool: string | undefined, force: boolean): Promise<void> {
    const scope = this.#changes.due(force);
    if (scope === undefined) return;
    const owner = scope === 'tool' && tool !== undefined ? this.#byTool.get(tool) : undefined;
    if (!(await this.#store.update(owner && [owner.folder]))) return;
    this.#settle();
    await this.#fillFreeSlots();
    this.#build(true);
    this.#follow();
    for (const listener of [...this.#documentListeners]) listener();
  }

  /**
   * Loads packages into the free places up to `maxLoaded` — pinned ones always — in priority
   * order: at the start, and when packages are added or removed.
   */
  async #fillFreeSlots(): Promise<void> {
    const chosen = this.#slots.waiting(this.#offered);
    const loaded = await Promise.all(chosen.map((record) => this.#store.loadFully(record)));
    this.#slots.fill(loaded.flatMap((record) => (record ? [record.folder] : [])));
    this.#settle();
  }

  /** Loads a package that was a ghost (or not listed), unloading the least recently used unpinned ones past `maxLoaded`. */
  async #admit(record: IndexedSkillPackage): Promise<void> {
    const loaded = await this.#store.loadFully(record);
    if (loaded) this.#slots.admit(loaded.folder, (folder) => this.#store.record(folder)?.name);
    this.#settle();
    this.#build(true);
  }

  /** A ghost called without a registry's refresh first: load its package, then run the real tool. */
  async #runGhost(tool: string, args: Record<string, unknown>, context: SkillContext, services: ServiceContainer): Promise<ToolResult> {
    await this.#serially(() => this.#refresh(tool, false));
    const record = this.#byTool.get(tool);
    const spec = record && this.#listing.loadedSpec(record, tool);
    if (!spec) return ToolResult.fail(`The tool ${tool} is no longer available: its skill package changed or did not load.`, 'not_found');
    return spec.factory(services).execute(args, context);
  }

  // --- the packages in effect ---

  /** Settles names across roots: the packages in effect, and which package each tool name is. */
  #settle(): void {
    const settled = settleNames([...this.#store.records], this.#roots);
    this.#active = settled.packages;
    this.#offered = offeredPackages(this.#settings, this.#active);
    this.#namingDiagnostics = settled.diagnostics;
    this.#byTool = new Map();
    for (const record of this.#offered) for (const tool of record.tools) if (!this.#byTool.has(tool)) this.#byTool.set(tool, record);
    this.#slots.keep(new Set(this.#offered.map((record) => record.folder)));
    this.#search.update(this.#offered);
  }

  #build(notify: boolean): void {
    const slots = this.#slots;
    this.#listing.build(
      { active: this.#offered, recent: slots.recent, byTool: this.#byTool, byPriority: (records) => slots.byPriority(records) },
      notify,
    );
    if (notify) this.#reports.report(this.diagnostics);
  }

  #follow(): void {
    this.#changes.follow(() => this.#store.watchedFolders);
  }
}

/**
 * Opens the skill packages of the roots as a library that stays current while it is used (§9).
 * Listing is quick — a package's frontmatter is scanned, not parsed, until it is loaded — and at
 * most `maxLoaded` packages are loaded (pinned ones first, then the most used, then by name);
 * the others are ghost tools, and calling one loads its package, evicting the least recently used
 * unpinned one. A watcher and the checks before each call and listing notice edits: a changed
 * package is loaded again and replaces the old one only when it loads, added ones join, removed
 * ones leave, and the family tells its listeners (a registry) each time its tools changed.
 * Rejects only on invalid options.
 */
export async function openSkillLibrary(options: SkillLibraryOptions): Promise<SkillLibrary> {
  const library = new Library(options);
  await library.start();
  const family = library.family;
  return {
    family,
    get packages() {
      return library.packages;
    },
    get diagnostics() {
      return library.diagnostics;
    },
    onDiagnostic: (listener) => library.onDiagnostic(listener),
    search: (query, limit) => library.search(query, limit),
    refresh: () => library.refresh(),
    close: async () => library.close(),
    [Symbol.asyncDispose]: async () => library.close(),
  };
}
