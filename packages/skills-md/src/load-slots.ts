import type { IndexedSkillPackage } from './package-index.js';
import type { SkillUsage } from './usage-records.js';

/**
 * Which packages are loaded (listed with their full schemas): at most `maxLoaded`, pinned ones
 * always, the least recently used unpinned one making room for a package called; and the order in
 * which packages get room — pinned, then the most used, then by name.
 */
export class LoadSlots {
  readonly #maxLoaded: number;
  readonly #pinned: ReadonlySet<string>;
  /** Loaded package folders, least recently used first. */
  #recent: string[] = [];
  #usage: Record<string, SkillUsage> = {};

  constructor(maxLoaded: number, pinned: readonly string[]) {
    this.#maxLoaded = maxLoaded;
    this.#pinned = new Set(pinned);
  }

  /** How often each package was used: the most used get room first. */
  set usage(usage: Record<string, SkillUsage>) {
    this.#usage = usage;
  }

  /** Loaded package folders, least recently used first. */
  get recent(): readonly string[] {
    return this.#recent;
  }

  isPinned(name: string): boolean {
    return this.#pinned.has(name);
  }

  /** The packages of `active` not loaded that get a free place now (pinned ones always), in priority order. */
  waiting(active: readonly IndexedSkillPackage[]): IndexedSkillPackage[] {
    const free = this.#maxLoaded - this.#recent.length;
    const waiting = this.byPriority(active.filter((record) => !this.#recent.includes(record.folder)));
    return waiting.filter((record, index) => this.#pinned.has(record.name) || index < free);
  }

  /** Takes the packages of {@link waiting} that loaded, the first as the most recently used. */
  fill(folders: readonly string[]): void {
    this.#recent.unshift(...[...folders].reverse());
  }

  /** Marks a loaded package as the most recently used; `false` when it is not loaded. */
  touch(folder: string): boolean {
    const at = this.#recent.indexOf(folder);
    if (at === -1) return false;
    this.#recent.push(...this.#recent.splice(at, 1));
    return true;
  }

  /** Takes a package just loaded, unloading the least recently used unpinned ones past `maxLoaded` (`nameOf` names a folder's package). */
  admit(folder: string, nameOf: (folder: string) => string | undefined): void {
    this.#recent.push(folder);
    while (this.#recent.length > this.#maxLoaded) {
      const victim = this.#recent.find((loaded) => loaded !== folder && !this.#pinned.has(nameOf(loaded) ?? ''));
      if (victim === undefined) break;
      this.#recent.splice(this.#recent.indexOf(victim), 1);
    }
  }

  /** Forgets loaded packages that are no longer in effect. */
  keep(active: ReadonlySet<string>): void {
    this.#recent = this.#recent.filter((folder) => active.has(folder));
  }

  /** Packages in the order they get room: pinned, then the most used, then by name. */
  byPriority(records: readonly IndexedSkillPackage[]): IndexedSkillPackage[] {
    const count = (record: IndexedSkillPackage) => this.#usage[record.name]?.count ?? 0;
    return [...records].sort(
      (a, b) =>
        Number(this.#pinned.has(b.name)) - Number(this.#pinned.has(a.name)) ||
        count(b) - count(a) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
  }
}
