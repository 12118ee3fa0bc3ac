import { describe, expect, it } from 'vitest';

describe('the public surface of @nexus/skills-git', () => {
  it('exports the family, its skill and the documented command lists, nothing internal', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'KNOWN_GIT_COMMANDS',
      'READ_ONLY_GIT_COMMANDS',
      'gitSkill',
      'gitSkills',
    ]);
  });
});
