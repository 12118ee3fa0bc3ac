import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Discovery, discoverSkillPackages, type PackageLocation } from './discover-skill-packages.js';
import { currentStamp } from './file-stamp.js';
import type { PackageLoadContext } from './load-skill-package.js';
import { type LoadSettings, loadContextOf } from './load-skill-packages.js';
import { PYTHON_COMMANDS_FILE } from './package-files.js';
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
import { checkPythonSyntax } from './python-commands.js';
import { checkScriptSyntax, SCRIPT_COMMANDS_FILE } from './script-commands.js';
import { diagnosticAt, FILE_START, type SkillDiagnostic } from './skill-diagnostic.js';
import type { SkillRoot } from './skill-locations.js';
import { type BrokenSkillPackage, isLoaded, type SkillPackage } from './skill-package.js';
import { readTrustRecords } from './trust-records.js';

type LoadModule = typeof import('./load-skill-package.js');

/**
 * The packages of a library's roots as the files have them, by folder: where each is, its index
 * entry (or what it loaded), the ones that could not load, the file versions last looked at, and
 * changes that did not load (the previous version kept). It finds what changed on disk; which
 * packages are loaded and listed is decided elsewhere.
 */
export class PackageStore {
  readonly #settings: LoadSettings;
  readonly #roots: readonly SkillRoot[];
  readonly #context: { -readonly [K in keyof PackageLoadContext]: PackageLoadContext[K] };
  #loadModule: Promise<LoadModule> | undefined;

  /** Every package folder found, by folder. */
  readonly #locations = new Map<string, PackageLocation>();
  /** Packages that index (or loaded), by folder. */
  readonly #records = new Map<string, IndexedSkillPackage>();
  /** Packages that could not load, by folder. */
  readonly #broken = new Map<string, BrokenSkillPackage>();
  /** The versions last looked at, by folder: a change of one is what a check looks for. */
  readonly #stamps = new Map<string, PackageStamps>();
  /** Roots and in-between folders, with their stamps: packages come and go there. */
  #directories = new Map<string, string>();
  #discoveryDiagnostics: readonly SkillDiagnostic[] = [];
  /** Changes that did not load (the previous version kept), by folder. */
  readonly #reloadProblems = new Map<string, SkillDiagnostic[]>();

  constructor(settings: LoadSettings, roots: readonly SkillRoot[]) {
    this.#settings = settings;
    this.#roots = roots;
    this.#context = loadContextOf(settings, {});
  }

  /** Finds and indexes every package of the roots (a package's frontmatter is scanned, not parsed). */
  async open(): Promise<void> {
    // The loader (the YAML parser and zod) is not imported here: compiling it would hold up the
    // listing; the library's first loads, right after it, import it.
    this.#context.trustRecords = await readTrustRecords(this.#settings.stateDirectory);
    this.#takeDiscovery(discoverSkillPackages(this.#roots));
    await Promise.all([...this.#locations.keys()].map((folder) => this.#reindex(folder, false)));
  }

  /** Packages that index (or loaded). */
  get records(): IterableIterator<IndexedSkillPackage> {
    return this.#records.values();
  }

  /** The package indexed in `folder`, if any. */
  record(folder: string): IndexedSkillPackage | undefined {
    return this.#records.get(folder);
  }

  /** Problems of the scan, of the indexed packages and of those that could not load. */
  get scanDiagnostics(): SkillDiagnostic[] {
    return [
      ...this.#discoveryDiagnostics,
      ...[...this.#records.values()].flatMap((record) => record.diagnostics),
      ...[...this.#broken.values()].flatMap((broken) => broken.diagnostics),
    ];
  }

  /** Changes that did not load: the previous version stays in use. */
  get reloadDiagnostics(): SkillDiagnostic[] {
    return [...this.#reloadProblems.values()].flat();
  }

  /** Folders a watcher should watch: the roots, the folders in between, each package and its `scripts` and `agents`. */
  get watchedFolders(): string[] {
    const folders = [...this.#directories.keys()];
    for (const location of this.#locations.values()) {
      folders.push(location.folder);
      if (location.entries.includes('scripts')) folders.push(join(location.folder, 'scripts'));
      if (location.entries.includes('agents')) folders.push(join(location.folder, 'agents'));
    }
    return folders;
  }

  /**
   * Looks at the files of the packages in `folders` (default: every package) and at the folders
   * packages come and go in, and takes in what changed: added packages are indexed, removed ones
   * forgotten, changed ones indexed again. `false` when nothing changed.
   */
  async update(folders: readonly string[] = [...this.#stamps.keys()]): Promise<boolean> {
    const rediscover = [...this.#directories].some(([directory, stamp]) => currentStamp(directory) !== stamp);
    const changed = new Set(
      folders.filter((folder) => {
        const seen = this.#stamps.get(folder);
        const now = packageStamps(folder);
        return !seen || seen.skillFile !== now.skillFile || seen.script !== now.script || seen.sideFile !== now.sideFile;
      }),
    );
    if (!rediscover && changed.size === 0) return false;
    if (rediscover) {
      const before = new Set(this.#locations.keys());
      this.#takeDiscovery(discoverSkillPackages(this.#roots));
      for (const folder of before) if (!this.#locations.has(folder)) this.#forget(folder);
      for (const folder of this.#locations.keys()) if (!before.has(folder)) changed.add(folder);
    }
    this.#context.trustRecords = await readTrustRecords(this.#settings.stateDirectory);
    await Promise.all([...changed].map((folder) => this.#reindex(folder, true)));
    return true;
  }

  /** The package loaded in full (its record replaced), or undefined when it turned out broken. */
  async loadFully(record: IndexedSkillPackage): Promise<IndexedSkillPackage | undefined> {
    if (record.loaded) return record;
    const stamps = packageStamps(record.folder);
    const result = await this.#loadPackage(record.location);
    if (!isLoaded(result)) {
      this.#records.delete(record.folder);
      this.#broken.set(record.folder, result);
      return undefined;
    }
    const loaded = indexOfLoaded(result, record.location, stamps);
    this.#records.set(record.folder, loaded);
    this.#stamps.set(record.folder, stamps);
    return loaded;
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
      this.#broken.set(folder, result);
    }
  }

  /**
   * A loaded package after a change: its script commands' module must parse (`node --check`, or
   * `python3 -m py_compile` for `scripts/commands.py`) before it is loaded again.
   */
  async #reload(
    previous: IndexedSkillPackage,
    location: PackageLocation,
    stamps: PackageStamps,
  ): Promise<IndexedSkillPackage | BrokenSkillPackage> {
    const scriptChanged = stamps.script !== 'missing' && stamps.script !== this.#stamps.get(location.folder)?.script;
    if (scriptChanged && previous.loaded?.scriptCommands === 'listed') {
      const { commandServices: services, maxOutputBytes } = this.#settings;
      const options = await packageRunOptions({ services, folder: location.folder, maxOutputBytes });
      const python = join(location.folder, PYTHON_COMMANDS_FILE);
      const syntax = existsSync(python)
        ? await checkPythonSyntax(python, options)
        : await checkScriptSyntax(join(location.folder, SCRIPT_COMMANDS_FILE), options);
      if (syntax) {
        const { name, folder, folderName, root, skillFile } = previous;
        return { name, folder, folderName, root, skillFile, diagnostics: [syntax] };
      }
    }
    const loaded = await this.#loadPackage(location);
    return isLoaded(loaded) ? indexOfLoaded(loaded, location, stamps) : loaded;
  }
}
