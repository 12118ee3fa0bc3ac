import type { SkillFamily } from '@nexus/core';

/**
 * A family whose skills change while a registry uses it — skill packages edited on disk, a remote
 * server's tools. `skills` is always the current set; the family calls its listeners after it
 * changed, and the registry then adds, replaces and removes its skills to match, in one change.
 * A plain {@link SkillFamily} has neither member and never changes.
 */
export interface ChangingSkillFamily extends SkillFamily {
  /** Calls `listener` each time `skills` changed; returns a function that stops it. */
  onChange(listener: () => void): () => void;
  /**
   * Brings `skills` up to date (a family decides how often it really looks). The registry awaits
   * it before each call of one of the family's tools, or of a tool no family has (with its name,
   * so a family can load a tool it only listed), and in `registry.refresh()` (without one).
   */
  refresh?(tool?: string): Promise<void>;
}

/** What one change of a registry did, by tool name. */
export interface RegistryChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Replaced by a new version under the same name. */
  readonly changed: readonly string[];
}

/** Whether `family` says when its skills change. */
export function isChangingFamily(family: SkillFamily): family is ChangingSkillFamily {
  return typeof (family as Partial<ChangingSkillFamily>).onChange === 'function';
}
