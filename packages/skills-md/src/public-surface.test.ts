import { describe, expect, it } from 'vitest';

describe('the public surface of @nexus/skills-md', () => {
  it('exports the loader, the library, the script-command helper and the records nexus reads — no internal limits or constants', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'SKILL_FOLDER_NAMES',
      'SkillResolutionError',
      'createSkillPackage',
      'defaultConfigDirectory',
      'defineSkillCommand',
      'describeSkillPackages',
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
