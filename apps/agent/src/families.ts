import type { SkillFamily } from '@nexus/core';
import { utilitySkills } from '@nexus/registry';

/**
 * Every skill family the `nexus` command can serve, by the name used in `--families` and the
 * config file, in the order their tools are listed. Each is loaded only when enabled, so a family
 * left out costs no start-up time. Adding a family is one line here.
 */
const FAMILIES = {
  fs: () => import('@nexus/skills-fs').then((module) => module.fsSkills),
  exec: () => import('@nexus/skills-exec').then((module) => module.execSkills),
  git: () => import('@nexus/skills-git').then((module) => module.gitSkills),
  gitlab: () => import('@nexus/skills-gitlab').then((module) => module.gitlabSkills),
  utility: async () => utilitySkills,
} as const satisfies Record<string, () => Promise<SkillFamily>>;

/** Name of a family in {@link FAMILIES}. */
export type FamilyName = keyof typeof FAMILIES;

/** The family names, in listing order. */
export const FAMILY_NAMES = Object.keys(FAMILIES) as [FamilyName, ...FamilyName[]];

/** Whether `name` is a known family. */
export function isFamilyName(name: string): name is FamilyName {
  return Object.hasOwn(FAMILIES, name);
}

/** Loads the named families, keeping their order. */
export function loadFamilies(names: readonly FamilyName[]): Promise<SkillFamily[]> {
  return Promise.all(names.map((name) => FAMILIES[name]()));
}
