import type { SkillFamily } from '@nexus/core';
import { gitlabBranch } from './skills/branch.js';
import { gitlabIssue } from './skills/issue.js';
import { gitlabLabel } from './skills/label.js';
import { gitlabMr } from './skills/mr.js';
import { gitlabRepo } from './skills/repo.js';
import { gitlabTag } from './skills/tag.js';

export { parseGitLabSettings } from './settings.js';
export type { GitLabInstanceSettings, GitLabSettings, ResolvedGitLabSettings } from './settings.js';

/** The GitLab skill family. */
export const gitlabSkills: SkillFamily = { name: 'gitlab', skills: [gitlabRepo, gitlabIssue, gitlabMr, gitlabLabel, gitlabBranch, gitlabTag] };
