export type { GitArguments, GlobalOption } from './git-arguments.js';
export { parseGitArguments } from './git-arguments.js';
export {
  GIT_BLOCKED_PATTERNS,
  gitCommandFilter,
  isReadOnlyGitInvocation,
  KNOWN_GIT_COMMANDS,
  READ_ONLY_GIT_COMMANDS,
} from './git-command-filter.js';
export { GIT_TIMEOUT_SECONDS, gitSkill, gitSkills } from './git-skill.js';
export type { GitBranch } from './output/branch-list.js';
export { BRANCH_FORMAT_OPTION, formatBranches, parseBranchList } from './output/branch-list.js';
export type { GitCommit } from './output/log-commits.js';
export { formatCommits, LOG_FORMAT_OPTIONS, parseLogCommits } from './output/log-commits.js';
export type { GitStatus, GitStatusEntry } from './output/status-porcelain.js';
export { formatStatus, parseStatusPorcelainV2 } from './output/status-porcelain.js';
