import { type FSWatcher, watch } from 'node:fs';

/**
 * Watches a set of folders, each on its own (`fs.watch`, which every platform has, rather than
 * a recursive watch), and calls `onEvent` for anything that happens in one. Watchers never keep
 * the process alive; a folder that cannot be watched (gone, or the system's watch limit reached)
 * is left to the modification-time checks.
 */
export class FolderWatcher {
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #onEvent: () => void;

  constructor(onEvent: () => void) {
    this.#onEvent = onEvent;
  }

  /** Watches exactly `folders` from now on. */
  update(folders: Iterable<string>): void {
    const wanted = new Set(folders);
    for (const [folder, watcher] of this.#watchers) {
      if (wanted.has(folder)) continue;
      watcher.close();
      this.#watchers.delete(folder);
    }
    for (const folder of wanted) {
      if (this.#watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, { persistent: false }, () => this.#onEvent());
        watcher.on('error', () => {
          watcher.close();
          this.#watchers.delete(folder);
          this.#onEvent();
        });
        this.#watchers.set(folder, watcher);
      } catch {
        // Not watchable: the checks before calls and listings still see its changes.
      }
    }
  }

  close(): void {
    this.update([]);
  }
}
