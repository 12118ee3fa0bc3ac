export { testdir, writeTree } from './temp-dir.js';
export type { TestDir, Tree, TreeEntry } from './temp-dir.js';
export { createSymlinkFarm } from './symlink-farm.js';
export type { SymlinkFarm } from './symlink-farm.js';
export { standInArtifactsZip, startGitLabStandIn, STAND_IN_USERS, type GitLabStandIn, type GitLabStandInOptions, type Injection, type RecordedRequest, type RouteHandler, type RouteRequest } from './gitlab-server.js';
