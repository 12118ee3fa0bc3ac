import { join } from 'node:path';
import { expectOption, type ServiceContainer, type SkillContext, type SkillFamily, type SkillSpec, ToolResult } from '@nexus/core';
import { commandSkill } from './command-skill.js';
import { type Discovery, discoverSkillPackages, type PackageLocation } from './discover-skill-packages.js';
import { currentStamp } from './file-stamp.js';
import { FolderWatcher } from './folder-watcher.js';
import { ghostSkill } from './ghost-skill.js';
import type { PackageLoadContext } from './load-skill-package.js';
import { type LoadSkillPackagesOptions, loadContextOf, normalizeOptions, rootsOf, runtimeOf } from './load-skill-packages.js';
import {
  type IndexedSkillPackage,
  indexOfLoaded,
  indexSkillPackage,
  isIndexed,
  type PackageStamps,
  packageStamps,
  refreshLocation,
} from './package-index.js';
import { packageRunOptions } from './package-run-options.js';
import { checkScriptSyntax, SCRIPT_COMMANDS_FILE } from './script-commands.js';
import { settleNames } from './settle-names.js';
import { diagnosticAt, FILE_START, formatDiagnostic, type SkillDiagnostic } from './skill-diagnostic.js';
import { SKILL_TOOL_NAME, skillInstructionsSkill } from './skill-instructions-skill.js';
import type { SkillRoot } from './skill-locations.js';
import { type BrokenSkillPackage, isLoaded, type SkillPackage } from './skill-package.js';
import { SKILL_SEARCH_TOOL_NAME, SkillSearchIndex, type SkillSearchResult, skillSearchSkill } from './skill-search.js';
import { SKILLS_FAMILY_NAME } from './skills-md-family.js';
import { readTrustRecords } from './trust-records.js';
import { readSkillUsage, type SkillUsage } from './usage-records.js';

/** How many packages are loaded at once by default (seed 004's `_max_loaded_skills`). */
export const DEFAULT_MAX_LOADED = 15;
/** The most tools a listing offers by default: OpenAI's limit per request. */
export const MAX_LISTED_TOOLS = 128;
/** How often, at most, files are checked before a call or a listing, by default. */
export const DEFAULT_CHECK_INTERVAL_MS = 100;
/** How long after a watcher event the check runs, so an editor's several writes make one reload. */
const WATCH_SETTLE_MS = 25;

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

/** What the library knows of one discovered folder that could not load. */
interface BrokenEntry {
  readonly broken: BrokenSkillPackage;
}

type LoadModule = typeof import('./load-skill-package.js');

function sameMembers(before: readonly SkillSpec[], after: readonly SkillSpec[]): boolean {
  if (before.length !== after.length) return false;
  const known = new Set(before);
  return after.every((spec) => known.has(spec));
}

class Library {
  readonly #settings: ReturnType<typeof normalizeOptions>;
  readonly #roots: SkillRoot[];
  readonly #maxLoaded: number;
  readonly #pinned: ReadonlySet<string>;
  readonly #maxTools: number;
  readonly #interval: number;
  readonly #context: { -readonly [K in keyof PackageLoadContext]: PackageLoadContext[K] };
  #loadModule: Promise<LoadModule> | undefined;

  /** Every package folder found, by folder. */
  readonly #locations = new Map<string, PackageLocation>();
  /** Packages that index (or loaded), by folder. */
  readonly #records = new Map<string, IndexedSkillPackage>();
  /** Packages that could not load, by folder. */
  readonly #broken = new Map<string, BrokenEntry>();
  /** The versions last looked at, by folder: a change of one is what a check looks for. */
  readonly #stamps = new Map<string, PackageStamps>();
  /** Roots and in-between folders, with their stamps: packages come and go there. */
  #directories = new Map<string, string>();
  #discoveryDiagnostics: readonly SkillDiagnostic[] = [];
  /** Changes that did not load (the previous version kept), by folder. */
  readonly #reloadProblems = new Map<string, SkillDiagnostic[]>();

  #active: IndexedSkillPackage[] = [];
  #naming: { broken: BrokenSkillPackage[]; diagnostics: SkillDiagnostic[] } = { broken: [], diagnostics: [] };
  #byTool = new Map<string, IndexedSkillPackage>();
  /** Loaded package folders, least recently used first. */
  #recent: string[] = [];
  #usage: Record<string, SkillUsage> = {};

  #skills: SkillSpec[] = [];
  #states = new Map<string, SkillPackageState>();
  #buildProblems: SkillDiagnostic[] = [];
  readonly #fullSpecs = new WeakMap<IndexedSkillPackage, SkillSpec[]>();
  readonly #ghostSpecs = new WeakMap<IndexedSkillPackage, SkillSpec[]>();
  #instructions: { key: string; spec: SkillSpec } | undefined;
  readonly #searchSpec: SkillSpec;
  readonly #search = new SkillSearchIndex();

  readonly #listeners = new Set<() => void>();
  readonly #diagnosticListeners = new Set<(diagnostic: SkillDiagnostic) => void>();
  #reported = new Set<string>();
  #queue: Promise<void> = Promise.resolve();
  #lastCheck = Number.NEGATIVE_INFINITY;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #watcher: FolderWatcher | undefined;

  constructor(options: SkillLibraryOptions) {
    this.#settings = normalizeOptions(options);
    this.#roots = rootsOf(this.#settings);
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
    this.#maxLoaded = maxLoaded;
    this.#pinned = new Set(pinned);
    this.#maxTools = maxTools;
    this.#interval = checkIntervalMs;
    this.#context = loadContextOf(this.#settings, {});
    this.#searchSpec = skillSearchSkill((query, limit) => this.search(query, limit));
    this.#watcher = watch ? new FolderWatcher(() => this.#sawChange()) : undefined;
  }

  /**
   * Indexes every package and lists them all as ghosts; the packages to load first — pinned, then
   * the most used, then by name, up to `maxLoaded` — are loaded right after, in the background
   * (`refresh`, which a registry runs before listing and calling, waits for them).
   */
  async start(): Promise<void> {
    // The loader (the YAML parser and zod) compiles while the files are read.
    void this.#loader();
    const [trustRecords, usage] = await Promise.all([
      readTrustRecords(this.#settings.stateDirectory),
      readSkillUsage(this.#settings.stateDirectory),
    ]);
    this.#context.trustRecords = trustRecords;
    this.#usage = usage;
    this.#takeDiscovery(discoverSkillPackages(this.#roots));
    await Promise.all([...this.#locations.keys()].map((folder) => this.#reindex(folder, false)));
    this.#settle();
    this.#build(false);
    this.#reported = new Set(this.#errors().map(formatDiagnostic));
    this.#watch();
    void this.#serially(async () => {
      await this.#fillFreeSlots();
      this.#build(true);
    }).catch(() => undefined);
  }

  /**
   * Loads packages into the free places up to `maxLoaded` — pinned ones always — in priority
   * order: at the start, and when packages are added or removed.
   */
  async #fillFreeSlots(): Promise<void> {
    const free = this.#maxLoaded - this.#recent.length;
    const waiting = this.#byPriority(this.#active.filter((record) => !this.#recent.includes(record.folder)));
    const chosen = waiting.filter((record, index) => this.#pinned.has(record.name) || index < free);
    const loaded = await Promise.all(chosen.map((record) => this.#loadFully(record)));
    this.#recent.unshift(...loaded.flatMap((record) => (record ? [record.folder] : [])).reverse());
    this.#settle();
  }

  // --- what the outside sees ---

  readonly family: SkillPackagesFamily = {
    name: SKILLS_FAMILY_NAME,
    skills: [],
    onChange: (listener) => {
      this.#listeners.add(listener);
      return () => this.#listeners.delete(listener);
    },
    refresh: (tool) => this.#serially(() => this.#refresh(tool, false)),
  };

  get packages(): SkillLibraryPackage[] {
    return this.#active.map((record) => ({
      name: record.name,
      description: record.description,
      folder: record.folder,
      root: record.root,
      trusted: record.trusted,
      tools: record.tools,
      state: this.#states.get(record.folder) ?? 'unlisted',
      pinned: this.#pinned.has(record.name),
    }));
  }

  get diagnostics(): SkillDiagnostic[] {
    return [
      ...this.#discoveryDiagnostics,
      ...[...this.#records.values()].flatMap((record) => record.diagnostics),
      ...[...this.#broken.values()].flatMap((entry) => entry.broken.diagnostics),
      ...this.#naming.diagnostics,
      ...this.#buildProblems,
      ...[...this.#reloadProblems.values()].flat(),
    ];
  }

  onDiagnostic(listener: (diagnostic: SkillDiagnostic) => void): () => void {
    this.#diagnosticListeners.add(listener);
    return () => this.#diagnosticListeners.delete(listener);
  }

  async search(query: string, limit = 5): Promise<SkillSearchResult[]> {
    const byFolder = new Map(this.#active.map((record) => [record.folder, record]));
    return (await this.#search.search(query, limit)).flatMap(({ folder, score }) => {
      const record = byFolder.get(folder);
      if (!record) return [];
      const loaded = this.#states.get(folder) === 'loaded';
      return [{ skill: record.name, tools: [...record.tools], description: record.description, score, loaded }];
    });
  }

  refresh(): Promise<void> {
    return this.#serially(() => this.#refresh(undefined, true));
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#listeners.clear();
    this.#diagnosticListeners.clear();
  }

  // --- checking and reloading ---

  /** Runs `work` after every earlier check or load: one at a time, so two never load the same package. */
  #serially(work: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #sawChange(): void {
    this.#dirty = true;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.#serially(() => this.#refresh(undefined, false)).catch(() => undefined);
    }, WATCH_SETTLE_MS).unref();
  }

  async #refresh(tool: string | undefined, force: boolean): Promise<void> {
    await this.#check(tool, force);
    if (tool === undefined) return;
    const record = this.#byTool.get(tool);
    if (!record) return;
    const at = this.#recent.indexOf(record.folder);
    if (at !== -1) {
      this.#recent.push(...this.#recent.splice(at, 1));
      return;
    }
    await this.#admit(record);
  }

  /**
   * Looks for changes: before a call of a known tool, that tool's package and the folders packages
   * come and go in; otherwise (a listing, an unknown tool, the watcher's news) every package.
   */
  async #check(tool: string | undefined, force: boolean): Promise<void> {
    const now = performance.now();
    if (!force && !this.#dirty && now - this.#lastCheck < this.#interval) return;
    const everything = force || this.#dirty || tool === undefined || !this.#byTool.has(tool);
    this.#lastCheck = now;
    this.#dirty = false;
    const rediscover = [...this.#directories].some(([directory, stamp]) => currentStamp(directory) !== stamp);
    const folders = everything ? [...this.#stamps.keys()] : [(this.#byTool.get(tool as string) as IndexedSkillPackage).folder];
    const changed = folders.filter((folder) => {
      const seen = this.#stamps.get(folder);
      const now = packageStamps(folder);
      return !seen || seen.skillFile !== now.skillFile || seen.script !== now.script;
    });
    if (!rediscover && changed.length === 0) return;
    await this.#apply(new Set(changed), rediscover);
  }

  async #apply(changed: Set<string>, rediscover: boolean): Promise<void> {
    if (rediscover) {
      const discovery = discoverSkillPackages(this.#roots);
      const before = new Set(this.#locations.keys());
      this.#takeDiscovery(discovery);
      for (const folder of before) if (!this.#locations.has(folder)) this.#forget(folder);
      for (const folder of this.#locations.keys()) if (!before.has(folder)) changed.add(folder);
    }
    this.#context.trustRecords = await readTrustRecords(this.#settings.stateDirectory);
    await Promise.all([...changed].map((folder) => this.#reindex(folder, true)));
    this.#settle();
    await this.#fillFreeSlots();
    this.#build(true);
    this.#watch();
  }

  #takeDiscovery(discovery: Discovery): void {
    this.#discoveryDiagnostics = discovery.diagnostics;
    for (const location of discovery.locations) this.#locations.set(location.folder, location);
    const found = new Set(discovery.locations.map((location) => location.folder));
    for (const folder of this.#locations.keys()) if (!found.has(folder)) this.#locations.delete(folder);
    const directories = [...new Set([...this.#roots.map((root) => root.path), ...discovery.directories])];
    this.#directories = new Map(directories.map((directory) => [directory, currentStamp(directory)]));
  }

  #forget(folder: string): void {
    this.#locations.delete(folder);
    this.#records.delete(folder);
    this.#broken.delete(folder);
    this.#stamps.delete(folder);
    this.#reloadProblems.delete(folder);
    this.#recent = this.#recent.filter((loaded) => loaded !== folder);
  }

  #loader(): Promise<LoadModule> {
    this.#loadModule ??= import('./load-skill-package.js');
    return this.#loadModule;
  }

  async #loadPackage(location: PackageLocation): Promise<SkillPackage | BrokenSkillPackage> {
    const { loadSkillPackage } = await this.#loader();
    return loadSkillPackage(location, this.#context);
  }

  /**
   * Indexes a folder again (at the start, or after a change). A package that is loaded is loaded
   * again in full — its script commands' module checked with `node --check` first — and a change
   * that does not load keeps the version in use, with a diagnostic saying so.
   */
  async #reindex(folder: string, reloading: boolean): Promise<void> {
    const known = this.#locations.get(folder);
    const location = known && (reloading ? await refreshLocation(known) : known);
    if (!location) return this.#forget(folder);
    this.#locations.set(folder, location);
    const previous = this.#records.get(folder);
    const before = reloading ? packageStamps(folder) : undefined;
    const result =
      previous?.loaded && before
        ? await this.#reload(previous, location, before)
        : await indexSkillPackage(location, this.#context, (where) => this.#loadPackage(where));
    this.#stamps.set(folder, isIndexed(result) ? result.stamps : (before ?? packageStamps(folder)));
    if (isIndexed(result)) {
      this.#records.set(folder, result);
      this.#broken.delete(folder);
      this.#reloadProblems.delete(folder);
    } else if (previous && reloading) {
      const kept = diagnosticAt(
        'error',
        result.skillFile,
        FILE_START,
        'this change does not load; the previous version stays in use until it is fixed',
      );
      this.#reloadProblems.set(folder, [kept, ...result.diagnostics]);
    } else {
      this.#records.delete(folder);
      this.#broken.set(folder, { broken: result });
    }
  }

  /** A loaded package after a change: its script commands' module must parse (`node --check`) before it is loaded again. */
  async #reload(
    previous: IndexedSkillPackage,
    location: PackageLocation,
    stamps: PackageStamps,
  ): Promise<IndexedSkillPackage | BrokenSkillPackage> {
    const scriptChanged = stamps.script !== 'missing' && stamps.script !== this.#stamps.get(location.folder)?.script;
    if (scriptChanged && previous.loaded?.scriptCommands === 'listed') {
      const { commandServices: services, maxOutputBytes } = this.#settings;
      const options = await packageRunOptions({ services, folder: location.folder, maxOutputBytes });
      const syntax = await checkScriptSyntax(join(location.folder, SCRIPT_COMMANDS_FILE), options);
      if (syntax) {
        const { name, folder, folderName, root, skillFile } = previous;
        return { name, folder, folderName, root, skillFile, diagnostics: [syntax] };
      }
    }
    const loaded = await this.#loadPackage(location);
    return isLoaded(loaded) ? indexOfLoaded(loaded, location, stamps) : loaded;
  }

  /** The package loaded in full (its record replaced), or undefined when it turned out broken. */
  async #loadFully(record: IndexedSkillPackage): Promise<IndexedSkillPackage | undefined> {
    if (record.loaded) return record;
    const stamps = packageStamps(record.folder);
    const result = await this.#loadPackage(record.location);
    if (!isLoaded(result)) {
      this.#records.delete(record.folder);
      this.#broken.set(record.folder, { broken: result });
      return undefined;
    }
    const loaded = indexOfLoaded(result, record.location, stamps);
    this.#records.set(record.folder, loaded);
    this.#stamps.set(record.folder, stamps);
    return loaded;
  }

  /** Loads a package that was a ghost (or not listed), unloading the least recently used unpinned ones past `maxLoaded`. */
  async #admit(record: IndexedSkillPackage): Promise<void> {
    const loaded = await this.#loadFully(record);
    if (loaded) {
      this.#recent.push(loaded.folder);
      while (this.#recent.length > this.#maxLoaded) {
        const victim = this.#recent.find((folder) => folder !== loaded.folder && !this.#pinned.has(this.#records.get(folder)?.name ?? ''));
        if (victim === undefined) break;
        this.#recent.splice(this.#recent.indexOf(victim), 1);
      }
    }
    this.#settle();
    this.#build(true);
  }

  // --- the listing ---

  #settle(): void {
    const settled = settleNames([...this.#records.values()], this.#roots);
    this.#active = settled.packages;
    this.#naming = { broken: settled.broken, diagnostics: settled.diagnostics };
    this.#byTool = new Map();
    for (const record of this.#active) for (const tool of record.tools) if (!this.#byTool.has(tool)) this.#byTool.set(tool, record);
    const active = new Set(this.#active.map((record) => record.folder));
    this.#recent = this.#recent.filter((folder) => active.has(folder));
    this.#search.update(this.#active);
  }

  /** Packages in the order they get room: pinned, then the most used, then by name. */
  #byPriority(records: readonly IndexedSkillPackage[]): IndexedSkillPackage[] {
    const count = (record: IndexedSkillPackage) => this.#usage[record.name]?.count ?? 0;
    return [...records].sort(
      (a, b) =>
        Number(this.#pinned.has(b.name)) - Number(this.#pinned.has(a.name)) ||
        count(b) - count(a) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
  }

  /**
   * The family's skills: `skill` and `skill_search`, the loaded packages' tools (most recently
   * used first), then ghosts of the others in priority order, while fewer than `maxTools` tools
   * (counting other families') are listed. Unchanged packages keep their spec objects, so a
   * registry sees only what really changed.
   */
  #build(notify: boolean): void {
    const loaded = new Set(this.#recent);
    const order = [
      ...[...this.#recent].reverse().flatMap((folder) => this.#active.filter((record) => record.folder === folder)),
      ...this.#byPriority(this.#active.filter((record) => !loaded.has(record.folder))),
    ];
    const budget = this.#maxTools - this.#settings.reservedToolNames.size - (this.#active.length > 0 ? 2 : 0);
    const listed: SkillSpec[] = [];
    const states = new Map<string, SkillPackageState>();
    const problems: SkillDiagnostic[] = [];
    for (const record of order) {
      const full = loaded.has(record.folder) && record.loaded !== undefined;
      const specs = this.#specsOf(record, full).filter((spec) => {
        const reserved =
          this.#settings.reservedToolNames.has(spec.name) || spec.name === SKILL_TOOL_NAME || spec.name === SKILL_SEARCH_TOOL_NAME;
        if (!reserved && this.#byTool.get(spec.name) === record) return true;
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
    const skills = this.#active.length > 0 ? [this.#instructionsSpec(), this.#searchSpec, ...listed] : [];
    this.#states = states;
    this.#buildProblems = problems;
    if (!sameMembers(this.#skills, skills)) {
      this.#skills = skills;
      (this.family as { skills: readonly SkillSpec[] }).skills = skills;
      if (notify) this.#notify();
    }
    if (notify) this.#reportNewErrors();
  }

  #specsOf(record: IndexedSkillPackage, full: boolean): SkillSpec[] {
    const cache = full ? this.#fullSpecs : this.#ghostSpecs;
    let specs = cache.get(record);
    if (!specs) {
      const skillPackage = record.loaded;
      specs =
        full && skillPackage
          ? skillPackage.trusted
            ? skillPackage.commands.map((command) => commandSkill({ skillPackage, command, runtime: runtimeOf(this.#settings) }))
            : []
          : record.tools.map((tool) =>
              ghostSkill(tool, `${record.description} (tool of the ${record.name} skill)`, (name, args, context, services) =>
                this.#runGhost(name, args, context, services),
              ),
            );
      cache.set(record, specs);
    }
    return specs;
  }

  #instructionsSpec(): SkillSpec {
    const key = JSON.stringify(
      this.#active.map((record) => [record.name, record.folderName, record.description, record.trust, record.tools]),
    );
    if (this.#instructions?.key !== key) this.#instructions = { key, spec: skillInstructionsSkill(this.#active) };
    return this.#instructions.spec;
  }

  /** A ghost called without a registry's refresh first: load its package, then run the real tool. */
  async #runGhost(tool: string, args: Record<string, unknown>, context: SkillContext, services: ServiceContainer): Promise<ToolResult> {
    await this.#serially(() => this.#refresh(tool, false));
    const record = this.#byTool.get(tool);
    const spec =
      record && this.#states.get(record.folder) === 'loaded'
        ? this.#specsOf(record, true).find((candidate) => candidate.name === tool)
        : undefined;
    if (!spec) return ToolResult.fail(`The tool ${tool} is no longer available: its skill package changed or did not load.`, 'not_found');
    return spec.factory(services).execute(args, context);
  }

  #notify(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#buildProblems.push(
          diagnosticAt(
            'error',
            this.#roots[0]?.path ?? this.#settings.cwd,
            FILE_START,
            `the tool list could not be updated: ${(error as Error).message}`,
          ),
        );
      }
    }
  }

  #errors(): SkillDiagnostic[] {
    return this.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  }

  #reportNewErrors(): void {
    const errors = this.#errors();
    const current = new Set(errors.map(formatDiagnostic));
    for (const error of errors)
      if (!this.#reported.has(formatDiagnostic(error))) for (const listener of this.#diagnosticListeners) listener(error);
    this.#reported = current;
  }

  #watch(): void {
    if (!this.#watcher) return;
    const folders = [...this.#directories.keys()];
    for (const location of this.#locations.values()) {
      folders.push(location.folder);
      if (location.entries.includes('scripts')) folders.push(join(location.folder, 'scripts'));
    }
    this.#watcher.update(folders);
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
