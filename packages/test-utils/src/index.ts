export { freePort } from './free-port.js';
export type { GitRepositoryOptions } from './git-repository.js';
export { createGitRepository, git } from './git-repository.js';
export {
  type GitLabStandIn,
  type GitLabStandInOptions,
  type Injection,
  type RecordedRequest,
  type RouteHandler,
  type RouteRequest,
  STAND_IN_USERS,
  standInArtifactsZip,
  startGitLabStandIn,
} from './gitlab-server.js';
export {
  type LlmAnswerStep,
  type LlmErrorStep,
  type LlmRequestBody,
  type LlmRequestRecord,
  type LlmResponder,
  type LlmStandIn,
  type LlmStep,
  type LlmToolCall,
  type LlmUsage,
  startLlmStandIn,
} from './llm-stand-in.js';
export { findOpenAiStrictSchemaProblems } from './llm-stand-in-strict-schema.js';
export { type OidcStandIn, type OidcUser, startOidcProvider } from './oidc-provider.js';
export { type PostStreamedOptions, postStreamed, type StreamedPostOutcome } from './post-streamed.js';
export { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.js';
export type { SymlinkFarm } from './symlink-farm.js';
export { createSymlinkFarm } from './symlink-farm.js';
export type { TestDir, Tree, TreeEntry } from './temp-dir.js';
export { testdir, writeTree } from './temp-dir.js';
export { waitUntil } from './wait-until.js';
