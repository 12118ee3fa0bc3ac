export type { CreateSkillPackageOptions, SkillPackageLanguage } from './create-skill-package.js';
export { createSkillPackage } from './create-skill-package.js';
export type { LoadedSkillPackages, LoadSkillPackagesOptions, ToolExecutor } from './load-skill-packages.js';
export { loadSkillPackages } from './load-skill-packages.js';
export type { CommandCategory, ParameterType } from './manifest-limits.js';
export { hashSkillPackage } from './package-hash.js';
export type { SkillFile } from './read-skill-file.js';
export { readSkillFile } from './read-skill-file.js';
export type { SkillCommand, SkillCommandParameter, SkillCommandSpec } from './script-commands.js';
export { defineSkillCommand } from './script-commands.js';
export type { DiagnosticSeverity, FilePosition, SkillDiagnostic } from './skill-diagnostic.js';
export { formatDiagnostic } from './skill-diagnostic.js';
export type { SkillInstructionsArguments } from './skill-instructions-skill.js';
export type {
  SkillLibrary,
  SkillLibraryOptions,
  SkillLibraryPackage,
  SkillPackageState,
  SkillPackagesFamily,
} from './skill-library.js';
export { openSkillLibrary } from './skill-library.js';
export type { SkillFolderName, SkillRoot, SkillScope } from './skill-locations.js';
export { defaultConfigDirectory, SKILL_FOLDER_NAMES } from './skill-locations.js';
export type { SkillManifest } from './skill-manifest.js';
export type { BrokenSkillPackage, PackageCommand, SkillPackage, TrustState } from './skill-package.js';
export type { SkillPackageReport, SkillPackagesReport } from './skill-package-report.js';
export { describeSkillPackages } from './skill-package-report.js';
export { SkillResolutionError } from './skill-resolution.js';
export type { SkillErrorType, SkillState } from './skill-result.js';
export type { SkillSearchArguments, SkillSearchResult } from './skill-search.js';
export type { TrustRecord } from './trust-records.js';
export { readTrustRecords, recordTrust } from './trust-records.js';
export type { CommandUsage, SkillUsage } from './usage-records.js';
export { flushSkillUsage, readSkillUsage } from './usage-records.js';
