import type { Stats } from 'node:fs';

/** What identifies one version of a file on disk. */
export interface FileVersion {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Whether the agent's knowledge of a file is current. */
export type ReadState = 'current' | 'unread' | 'changed';

/**
 * Remembers which files an agent has seen, so the write skills can refuse to overwrite a file the
 * agent never read or that changed on disk since. Register one per agent as the `readTracker`
 * service to switch the protection on.
 */
export interface ReadTracker {
  /** Notes that the agent now knows `path` (a real path) as it is at `version`. */
  record(path: string, version: FileVersion): void;
  /** Compares what the agent last saw of `path` with the `version` on disk. */
  check(path: string, version: FileVersion): ReadState;
  /** Forgets `path` (it was removed or moved away). */
  forget(path: string): void;
}

declare module '@nexus/core' {
  interface Services {
    /** Stale-write protection for the file skills (`@nexus/skills-fs`). */
    readTracker: ReadTracker;
  }
}

/** The version of a file from its stats. */
export function fileVersion(stats: Stats): FileVersion {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

/** A {@link ReadTracker} that keeps its records in memory for the life of the agent. */
export class InMemoryReadTracker implements ReadTracker {
  readonly #seen = new Map<string, FileVersion>();

  record(path: string, version: FileVersion): void {
    this.#seen.set(path, { ...version });
  }

  check(path: string, version: FileVersion): ReadState {
    const seen = this.#seen.get(path);
    if (!seen) return 'unread';
    const same = seen.size === version.size && seen.mtimeMs === version.mtimeMs && seen.ino === version.ino;
    return same ? 'current' : 'changed';
  }

  forget(path: string): void {
    this.#seen.delete(path);
  }
}
