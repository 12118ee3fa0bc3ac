export { KNOWN_GIT_COMMANDS, READ_ONLY_GIT_COMMANDS } from './git-command-filter.js';
export { gitSkills } from './git-family.js';
export type { GitBranch } from './output/branch-list.js';
export type { GitCommit } from './output/log-commits.js';
export type { GitStatus, GitStatusEntry } from './output/status-porcelain.js';
export type { GitArguments } from './skills/git.js';
export { gitSkill } from './skills/git.js';
