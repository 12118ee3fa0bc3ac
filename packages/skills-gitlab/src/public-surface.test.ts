import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as gitlab from './index.js';
import * as kit from './kit.js';

describe('the @nexus/skills-gitlab surface', () => {
  it('exports the family, its 24 skills, settings validation and the error class, nothing internal', () => {
    expect(Object.keys(gitlab).sort()).toEqual([
      'GitLabApiError',
      'gitlabApprovalSkill',
      'gitlabArtifactSkill',
      'gitlabBoardSkill',
      'gitlabBranchSkill',
      'gitlabDeployKeySkill',
      'gitlabDeployTokenSkill',
      'gitlabDiscussionSkill',
      'gitlabDraftSkill',
      'gitlabEpicSkill',
      'gitlabFeatureFlagSkill',
      'gitlabFileSkill',
      'gitlabIssueSkill',
      'gitlabIterationSkill',
      'gitlabJobSkill',
      'gitlabLabelSkill',
      'gitlabMilestoneSkill',
      'gitlabMrSkill',
      'gitlabPipelineSkill',
      'gitlabRepoSkill',
      'gitlabSearchSkill',
      'gitlabSkills',
      'gitlabTagSkill',
      'gitlabTimeSkill',
      'gitlabVariableSkill',
      'gitlabWikiSkill',
      'parseGitLabSettings',
    ]);
  });

  it('exports the plugin-author building blocks from ./kit, and the manifest maps both entry points', () => {
    expect(Object.keys(kit).sort()).toEqual(['MAYBE_OBJECT', 'NOTHING', 'defineGitLabSkill', 'listOf', 'objectWith', 'reply', 'segment']);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(Object.keys(manifest.exports)).toEqual(['.', './kit', './package.json']);
  });
});
