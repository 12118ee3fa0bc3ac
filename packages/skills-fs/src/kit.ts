// Building blocks for writing new file skills on the family's sandbox: `@nexus/skills-fs/kit`.
export type { ChunkReader } from './chunk-reader.js';
export type { FileSkillDefinition, FileSkillHandler } from './define-file-skill.js';
export { defineFileSkill } from './define-file-skill.js';
export type { EditConflictReason } from './edit-conflict-error.js';
export { EditConflictError } from './edit-conflict-error.js';
export type { FileOpener, OpenedFile } from './file-opener.js';
export type { FileSandbox } from './file-sandbox.js';
export type { ResolvedFileSkillOptions } from './file-skill-options.js';
export type { MakeDirectoriesOptions } from './make-directories.js';
export { makeDirectories } from './make-directories.js';
export type { PathApprovalOptions, PathAuthorizer } from './path-authorizer.js';
export { StaleFileError } from './stale-file-error.js';
export type { StaleWriteGuard } from './stale-write-guard.js';
