import type { SkillFamily } from '@nexus/core';
import { gitSkill } from './skills/git.js';

/** The git family: the `git` skill, offered at every level and filtered by it. */
export const gitSkills: SkillFamily = { name: 'git', skills: [gitSkill] };
