import { FolderWatcher } from './folder-watcher.js';

/** How long after a watcher event the check runs, so an editor's several writes make one reload. */
const WATCH_SETTLE_MS = 25;

/** What a check looks at: every package, or (before a call of a known tool) that tool's package only. */
export type CheckScope = 'everything' | 'tool';

/**
 * When a library looks at its files: a watcher on its folders (optional) whose events run `check`
 * shortly after, and the checks before calls and listings, at most every `intervalMs` unless the
 * watcher saw something.
 */
export class ChangeWatch {
  readonly #intervalMs: number;
  readonly #check: () => void;
  readonly #watcher: FolderWatcher | undefined;
  #lastCheck = Number.NEGATIVE_INFINITY;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;

  /** `check`: looks at the files, run shortly after the watcher saw something. */
  constructor(options: { watch: boolean; intervalMs: number; check: () => void }) {
    this.#intervalMs = options.intervalMs;
    this.#check = options.check;
    this.#watcher = options.watch ? new FolderWatcher(() => this.#sawChange()) : undefined;
  }

  /**
   * Whether the files are to be looked at now, counting it as done: `undefined` while the interval
   * has not passed, `everything` when `force`d or the watcher saw something, else `tool`.
   */
  due(force: boolean): CheckScope | undefined {
    const now = performance.now();
    if (!force && !this.#dirty && now - this.#lastCheck < this.#intervalMs) return undefined;
    const scope = force || this.#dirty ? 'everything' : 'tool';
    this.#lastCheck = now;
    this.#dirty = false;
    return scope;
  }

  /** Watches exactly `folders` from now on (nothing without a watcher). */
  follow(folders: () => Iterable<string>): void {
    this.#watcher?.update(folders());
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#watcher?.close();
  }

  #sawChange(): void {
    this.#dirty = true;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#check();
    }, WATCH_SETTLE_MS).unref();
  }
}
