import { describe, expect, it } from 'vitest';

describe('the public surface of @nexus/skills-md', () => {
  it('exports the loader, the script-command helper and what tools built on it need', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'COMMAND_CATEGORIES',
      'DEFAULT_CHECK_INTERVAL_MS',
      'DEFAULT_MAX_LOADED',
      'DEFAULT_OUTPUT_DIRECTORY',
      'MAX_COMMAND_SECONDS',
      'MAX_LISTED_TOOLS',
      'MAX_SCAN_DEPTH',
      'MAX_SCAN_DIRECTORIES',
      'MAX_SKILL_FILE_BYTES',
      'MAX_YAML_ALIAS_COUNT',
      'PARAMETER_TYPES',
      'PROJECT_SKILL_ROOTS',
      'SKILLS_FAMILY_NAME',
      'SKILL_FILE_NAME',
      'SkillFileError',
      'SkillResolutionError',
      'createSkillPackage',
      'defaultConfigDirectory',
      'defaultStateDirectory',
      'defineSkillCommand',
      'flushSkillUsage',
      'formatDiagnostic',
      'hashSkillPackage',
      'loadSkillPackages',
      'openSkillLibrary',
      'readSkillFile',
      'readSkillUsage',
      'readTrustRecords',
      'recordTrust',
    ]);
  });
});
