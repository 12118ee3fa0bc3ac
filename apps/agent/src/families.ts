import type { SkillFamily } from '@nexus/core';
import { utilitySkills } from '@nexus/registry';
import { execSkills } from '@nexus/skills-exec';
import { fsSkills } from '@nexus/skills-fs';
import { gitlabSkills } from '@nexus/skills-gitlab';

/**
 * Every skill family the `nexus` command can serve, by the name used in `--families` and the
 * config file, in the order their tools are listed. Adding a family is one line here.
 */
export const FAMILIES = {
  fs: fsSkills,
  exec: execSkills,
  gitlab: gitlabSkills,
  utility: utilitySkills,
} as const satisfies Record<string, SkillFamily>;

/** Name of a family in {@link FAMILIES}. */
export type FamilyName = keyof typeof FAMILIES;

/** The family names, in listing order. */
export const FAMILY_NAMES = Object.keys(FAMILIES) as [FamilyName, ...FamilyName[]];

/** Whether `name` is a known family. */
export function isFamilyName(name: string): name is FamilyName {
  return Object.hasOwn(FAMILIES, name);
}
