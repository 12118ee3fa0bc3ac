import type { ToolRule } from '@nexus/core';
import type { CommandHookSettings } from './command-hooks.js';
import type { ConfigFile } from './config-file.js';

/** The governance part of the effective configuration. */
export interface GovernanceSettings {
  /** Ordered rules on tools and their arguments: the working directory's file's first, then the user's. */
  rules: ToolRule[];
  /** Programs asked before and after each call, from the user's file only. */
  hooks: CommandHookSettings;
}

/**
 * The governance fields a working-directory file may not set, as field paths: an `allow` rule
 * (a project only narrows — its `deny` and `ask` rules are welcome) and `hooks` (programs to run).
 */
export function governanceWidenings(config: ConfigFile): string[] {
  const allows = (config.rules ?? []).flatMap((rule, index) => (rule.decision === 'allow' ? [`rules[${index}].decision`] : []));
  return [...allows, ...(config.hooks === undefined ? [] : ['hooks'])];
}

/**
 * Merges the governance fields of the user's and the working directory's files. The project's
 * rules come first: they may only deny or ask, and the user's `allow` exceptions must not end the
 * search before them.
 */
export function mergeGovernance(user: ConfigFile | undefined, project: ConfigFile | undefined): GovernanceSettings {
  return { rules: [...(project?.rules ?? []), ...(user?.rules ?? [])], hooks: user?.hooks ?? {} };
}
