import type { SkillFamily } from '@nexus/core';
import { gitlabApproval } from './skills/approval.js';
import { gitlabArtifact } from './skills/artifact.js';
import { gitlabBoard } from './skills/board.js';
import { gitlabBranch } from './skills/branch.js';
import { gitlabDeployKey } from './skills/deploy-key.js';
import { gitlabDeployToken } from './skills/deploy-token.js';
import { gitlabDiscussion } from './skills/discussion.js';
import { gitlabDraft } from './skills/draft.js';
import { gitlabEpic } from './skills/epic.js';
import { gitlabFeatureFlag } from './skills/feature-flag.js';
import { gitlabIssue } from './skills/issue.js';
import { gitlabIteration } from './skills/iteration.js';
import { gitlabJob } from './skills/job.js';
import { gitlabLabel } from './skills/label.js';
import { gitlabMilestone } from './skills/milestone.js';
import { gitlabMr } from './skills/mr.js';
import { gitlabPipeline } from './skills/pipeline.js';
import { gitlabRepo } from './skills/repo.js';
import { gitlabTag } from './skills/tag.js';
import { gitlabTime } from './skills/time.js';
import { gitlabVariable } from './skills/variable.js';

export type { GitLabInstanceSettings, GitLabSettings, ResolvedGitLabSettings } from './settings.js';
export { parseGitLabSettings } from './settings.js';
export {
  gitlabApproval,
  gitlabArtifact,
  gitlabBoard,
  gitlabBranch,
  gitlabDeployKey,
  gitlabDeployToken,
  gitlabDiscussion,
  gitlabDraft,
  gitlabEpic,
  gitlabFeatureFlag,
  gitlabIssue,
  gitlabIteration,
  gitlabJob,
  gitlabLabel,
  gitlabMilestone,
  gitlabMr,
  gitlabPipeline,
  gitlabRepo,
  gitlabTag,
  gitlabTime,
  gitlabVariable,
};

/**
 * The 21 GitLab skills, in the order of seed 000 (foundation, project management, code review,
 * CI/CD, configuration). Each needs the `trusted` level and the `gitlab` service:
 * ```ts
 * services.register('gitlab', { instances: { work: { url: 'https://gitlab.example.com', tokenEnv: 'GITLAB_TOKEN' } } });
 * new SkillRegistry(services).use(gitlabSkills);
 * ```
 */
export const gitlabSkills: SkillFamily = {
  name: 'gitlab',
  skills: [
    gitlabRepo,
    gitlabIssue,
    gitlabMr,
    gitlabLabel,
    gitlabBranch,
    gitlabTag,
    gitlabEpic,
    gitlabIteration,
    gitlabMilestone,
    gitlabBoard,
    gitlabTime,
    gitlabApproval,
    gitlabDraft,
    gitlabDiscussion,
    gitlabPipeline,
    gitlabJob,
    gitlabArtifact,
    gitlabVariable,
    gitlabDeployKey,
    gitlabDeployToken,
    gitlabFeatureFlag,
  ],
};
