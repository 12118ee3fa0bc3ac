export type { AtomicContent, AtomicWriteOptions } from './atomic-write.js';
export { atomicWriteVerified } from './atomic-write.js';
export { confirmationCovers, confirmOncePerCall } from './confirm-once.js';
export type {
  ErrorOptions,
  InvalidOptionErrorOptions,
  InvalidParametersErrorOptions,
  NexusErrorCode,
  NexusErrorOptions,
  PathSecurityErrorOptions,
  TimeoutErrorOptions,
} from './errors.js';
export {
  CancelledError,
  ConfigError,
  InvalidOptionError,
  InvalidParametersError,
  NexusError,
  NotFoundError,
  PathSecurityError,
  PermissionDeniedError,
  SkillExecutionError,
  SkillNotFoundError,
  TimeoutError,
} from './errors.js';
export type { FamilyDocuments, FamilyFile, FamilyFileContent, FamilyInstructions } from './family-documents.js';
export type { FileLockOptions } from './file-lock.js';
export { withFileLocks } from './file-lock.js';
export { AGENT_ID_PATTERN, isValidAgentId, isValidToolName, validateAgentId, validateToolName } from './identifiers.js';
export type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue } from './json.js';
export type { LineEnding } from './line-endings.js';
export { convertLineEndings, detectLineEnding } from './line-endings.js';
export type { SchemaIssue } from './options.js';
export { describeValue, expectOption, formatSchemaIssues, isPositiveNumber } from './options.js';
export type { ValidatePathOptions } from './paths.js';
export { isPrivateProcessEntry, isWithin, normalizePath, resolveRealPath, validatePath } from './paths.js';
export type {
  AgentPermissions,
  PathAccess,
  PermissionLevel,
  PresetName,
  PresetOptions,
  ToolPermission,
  ToolTraits,
} from './permissions.js';
export {
  assertWithinCeiling,
  findCeilingViolations,
  findToolRefusal,
  isPermissionLevel,
  isToolEnabled,
  levelAtLeast,
  PERMISSION_LEVELS,
  resolvePreset,
  resolveToolAllowedPaths,
} from './permissions.js';
export { canonicalJson, policyDigest } from './policy-digest.js';
export { redactSecrets } from './redact.js';
export type { SafeEnvOptions } from './safe-env.js';
export { getSafeEnv, isSecretName } from './safe-env.js';
export type { AuthorizePathOptions } from './sandbox.js';
export { authorizePath } from './sandbox.js';
export type { ConfirmationRequest, ConfirmFunction, ServiceName, Services } from './service-container.js';
export { ServiceContainer } from './service-container.js';
export type {
  Skill,
  SkillContext,
  SkillDefinition,
  SkillFactory,
  SkillFamily,
  SkillHandler,
  SkillMetadata,
  SkillProgress,
  SkillSpec,
} from './skill.js';
export { defineSkill } from './skill.js';
export { nexusStateDir } from './state-dir.js';
export type { FailOptions, ToolErrorKind, ToolResultJson } from './tool-result.js';
export { TOOL_ERROR_KINDS, ToolResult } from './tool-result.js';
export type { RuleDecision, ToolRule } from './tool-rules.js';
export { isPathParameter, RULE_DECISIONS } from './tool-rules.js';
export type { ToolScope } from './tool-scope.js';
export type { VerifiedDirectory } from './verified-open.js';
export {
  openVerified,
  openVerifiedDirectory,
  openVerifiedSync,
  refusePlantedSymlink,
  withVerifiedDirectory,
} from './verified-open.js';
