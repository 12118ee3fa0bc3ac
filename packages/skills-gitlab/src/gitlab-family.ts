import type { SkillFamily } from '@nexus/core';
import { gitlabApprovalSkill } from './skills/approval.js';
import { gitlabArtifactSkill } from './skills/artifact.js';
import { gitlabBoardSkill } from './skills/board.js';
import { gitlabBranchSkill } from './skills/branch.js';
import { gitlabDeployKeySkill } from './skills/deploy-key.js';
import { gitlabDeployTokenSkill } from './skills/deploy-token.js';
import { gitlabDiscussionSkill } from './skills/discussion.js';
import { gitlabDraftSkill } from './skills/draft.js';
import { gitlabEpicSkill } from './skills/epic.js';
import { gitlabFeatureFlagSkill } from './skills/feature-flag.js';
import { gitlabFileSkill } from './skills/file.js';
import { gitlabIssueSkill } from './skills/issue.js';
import { gitlabIterationSkill } from './skills/iteration.js';
import { gitlabJobSkill } from './skills/job.js';
import { gitlabLabelSkill } from './skills/label.js';
import { gitlabMilestoneSkill } from './skills/milestone.js';
import { gitlabMrSkill } from './skills/mr.js';
import { gitlabPipelineSkill } from './skills/pipeline.js';
import { gitlabRepoSkill } from './skills/repo.js';
import { gitlabSearchSkill } from './skills/search.js';
import { gitlabTagSkill } from './skills/tag.js';
import { gitlabTimeSkill } from './skills/time.js';
import { gitlabVariableSkill } from './skills/variable.js';
import { gitlabWikiSkill } from './skills/wiki.js';

/**
 * The 24 GitLab skills: the 21 of seed 000 in its order (foundation, project management, code
 * review, CI/CD, configuration), then repository files, search and wiki pages. Each needs the `trusted` level and the `gitlab` service:
 * ```ts
 * services.register('gitlab', { instances: { work: { url: 'https://gitlab.example.com', tokenEnv: 'GITLAB_TOKEN' } } });
 * new SkillRegistry(services).use(gitlabSkills);
 * ```
 */
export const gitlabSkills: SkillFamily = {
  name: 'gitlab',
  skills: [
    gitlabRepoSkill,
    gitlabIssueSkill,
    gitlabMrSkill,
    gitlabLabelSkill,
    gitlabBranchSkill,
    gitlabTagSkill,
    gitlabEpicSkill,
    gitlabIterationSkill,
    gitlabMilestoneSkill,
    gitlabBoardSkill,
    gitlabTimeSkill,
    gitlabApprovalSkill,
    gitlabDraftSkill,
    gitlabDiscussionSkill,
    gitlabPipelineSkill,
    gitlabJobSkill,
    gitlabArtifactSkill,
    gitlabVariableSkill,
    gitlabDeployKeySkill,
    gitlabDeployTokenSkill,
    gitlabFeatureFlagSkill,
    gitlabFileSkill,
    gitlabSearchSkill,
    gitlabWikiSkill,
  ],
};
