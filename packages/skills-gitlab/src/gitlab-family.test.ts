import { SkillRegistry } from '@nexus/registry';
import { describe, expect, it } from 'vitest';
import { isMutatingAction, READ_ONLY_ACTIONS } from './action-kinds.js';
import * as gitlab from './index.js';

const NAMES = [
  'gitlab_repo',
  'gitlab_issue',
  'gitlab_mr',
  'gitlab_label',
  'gitlab_branch',
  'gitlab_tag',
  'gitlab_epic',
  'gitlab_iteration',
  'gitlab_milestone',
  'gitlab_board',
  'gitlab_time',
  'gitlab_approval',
  'gitlab_draft',
  'gitlab_discussion',
  'gitlab_pipeline',
  'gitlab_job',
  'gitlab_artifact',
  'gitlab_variable',
  'gitlab_deploy_key',
  'gitlab_deploy_token',
  'gitlab_feature_flag',
  'gitlab_file',
  'gitlab_search',
  'gitlab_wiki',
];

describe('gitlabSkills', () => {
  it('holds the 21 skills of seed 000 and the files, search and wiki skills, each also exported on its own', () => {
    expect(gitlab.gitlabSkills.name).toBe('gitlab');
    expect(gitlab.gitlabSkills.skills.map((spec) => spec.name)).toEqual(NAMES);
    const exported = Object.values(gitlab).filter((value) => typeof value === 'object' && value !== null && 'factory' in value);
    expect(new Set(exported)).toEqual(new Set(gitlab.gitlabSkills.skills));
  });

  it('every skill needs trusted, takes a required action enum and refuses unknown parameters', () => {
    for (const spec of gitlab.gitlabSkills.skills) {
      expect(spec.minimumLevel).toBe('trusted');
      expect(spec.parameters).toMatchObject({ type: 'object', additionalProperties: false, required: expect.arrayContaining(['action']) });
      expect((spec.parameters.properties!.action as { enum: string[] }).enum.length).toBeGreaterThan(0);
      expect(spec.parameters.properties?.instance).toEqual({ type: 'string', description: 'Configured instance name' });
      expect(spec.description).toMatch(/^GitLab .*Actions: /);
    }
  });

  it('offers dry_run exactly where an action changes something', () => {
    for (const spec of gitlab.gitlabSkills.skills) {
      const actions = (spec.parameters.properties!.action as { enum: string[] }).enum;
      expect('dry_run' in (spec.parameters.properties ?? {})).toBe(actions.some(isMutatingAction));
    }
  });

  it('classifies actions by name, treating unknown names as mutating', () => {
    expect(READ_ONLY_ACTIONS.has('list')).toBe(true);
    expect(isMutatingAction('download')).toBe(true);
    expect(isMutatingAction('something-new')).toBe(true);
  });

  it('registers into a registry whose schemas ajv accepts', () => {
    const registry = new SkillRegistry().use(gitlab.gitlabSkills);
    expect(registry.getDefinitions({ format: 'mcp' }).find((definition) => definition.name === 'gitlab_branch')?.annotations).toEqual({
      title: 'GitLab branches',
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
  });

  it('gives every skill a title, the open-world hint, an outputSchema naming its actions, and read-only and idempotent hints where no action changes anything', () => {
    for (const spec of gitlab.gitlabSkills.skills) {
      const actions = (spec.parameters.properties!.action as { enum: string[] }).enum;
      const reads = !actions.some(isMutatingAction);
      expect(spec.title, spec.name).toMatch(/^GitLab [a-zA-Z]/);
      expect(spec.openWorld, spec.name).toBe(true);
      expect(spec.idempotent === true, spec.name).toBe(reads);
      expect(spec.readOnly, spec.name).toBe(reads);
      expect(spec.outputSchema, spec.name).toMatchObject({
        type: 'object',
        required: ['action'],
        properties: { action: { enum: actions } },
      });
    }
    expect(gitlab.gitlabSearchSkill).toMatchObject({ readOnly: true, idempotent: true });
  });
});
