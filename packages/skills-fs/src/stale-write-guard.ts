import type { Stats } from 'node:fs';
import type { ServiceContainer } from '@nexus/core';
import type { PathAuthorizer } from './path-authorizer.js';
import { fileVersion } from './read-tracker.js';
import { StaleFileError } from './stale-file-error.js';

/**
 * The stale-write protection, over the agent's `readTracker` service: a write skill refuses to
 * overwrite a file the agent has not seen as it is now. Without a registered tracker every check
 * passes and nothing is recorded.
 */
export class StaleWriteGuard {
  readonly #services: ServiceContainer;
  readonly #paths: PathAuthorizer;

  /** Guards the writes of the agent owning `services`; `paths` names files in refusals. */
  constructor(services: ServiceContainer, paths: PathAuthorizer) {
    this.#services = services;
    this.#paths = paths;
  }

  /** Refuses (with a {@link StaleFileError}) to overwrite a file the agent has not read as it is now. */
  async assertFresh(real: string, stats: Stats): Promise<void> {
    const tracker = this.#services.get('readTracker');
    if (!tracker) return;
    const state = tracker.check(real, fileVersion(stats));
    if (state !== 'current') throw new StaleFileError(await this.#paths.display(real), state);
  }

  /** Whether a tracker is registered and the agent has seen the file as it is at `stats`. */
  hasSeen(real: string, stats: Stats): boolean {
    return this.#services.get('readTracker')?.check(real, fileVersion(stats)) === 'current';
  }

  /** Notes that the agent has seen (read or written) the file as it is at `stats`. */
  recordSeen(real: string, stats: Stats): void {
    this.#services.get('readTracker')?.record(real, fileVersion(stats));
  }

  /** Tells the read tracker a path no longer holds what the agent saw. */
  forget(real: string): void {
    this.#services.get('readTracker')?.forget(real);
  }
}
