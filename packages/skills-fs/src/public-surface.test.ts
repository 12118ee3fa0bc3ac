import { describe, expect, test } from 'vitest';

describe('the public surface of @nexus/skills-fs', () => {
  test('`.` exports the family, its skills and the read tracker', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'InMemoryReadTracker',
      'appendFileSkill',
      'copyFileSkill',
      'editFileSkill',
      'editLinesSkill',
      'fileInfoSkill',
      'fsSkills',
      'globSkill',
      'grepSkill',
      'listDirectorySkill',
      'mkdirSkill',
      'patchSkill',
      'readFileSkill',
      'regexReplaceSkill',
      'renameSkill',
      'tailSkill',
      'writeFileSkill',
    ]);
  });

  test('`./kit` exports what a new file skill is built from', async () => {
    expect(Object.keys(await import('./kit.js')).sort()).toEqual([
      'EditConflictError',
      'StaleFileError',
      'defineFileSkill',
      'makeDirectories',
    ]);
  });
});
