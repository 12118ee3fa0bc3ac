import { describe, expect, it } from 'vitest';

describe('the public surface of @nexus/skills-exec', () => {
  it('exports the family and its three skills from the entry point', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual(['bashSafeSkill', 'execSkills', 'runPythonSkill', 'shellUnsafeSkill']);
  });

  it('exports the bases for new command skills from ./kit', async () => {
    expect(Object.keys(await import('./kit.js')).sort()).toEqual([
      'defineExecutionSkill',
      'defineFilteredCommandSkill',
      'findCommandRefusal',
      'isReadOnlyInvocation',
      'requireString',
    ]);
  });
});
