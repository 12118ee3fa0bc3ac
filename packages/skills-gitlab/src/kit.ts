/**
 * Building blocks for writing further GitLab skills (`@nexus/skills-gitlab/kit`): a skill made with
 * {@link defineGitLabSkill} gets what the 21 built-in skills get — instance choice, project from the
 * git remote, pagination, retries, `dry_run`, confirmation of every change, secret masking and
 * output limits — and is its table of actions.
 */

export type { ChangePlan, GitLabAction, GitLabArguments, GitLabSkillDefinition } from './define-gitlab-skill.js';
export { type ActionContext, defineGitLabSkill, reply } from './define-gitlab-skill.js';
export type { GitLabRequest, HttpMethod, QueryValue } from './gitlab-client.js';
export type { Scope } from './gitlab-target.js';
export { listOf, MAYBE_OBJECT, NOTHING, objectWith } from './output-schema.js';
export { segment } from './url-segments.js';
