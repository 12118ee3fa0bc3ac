import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSkillPackage } from './create-skill-package.js';
import { type SkillWorld, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

describe('createSkillPackage', () => {
  it('creates a package that loads without a single diagnostic, and whose command runs', async () => {
    const folder = await createSkillPackage(world.userRoot, 'weekly-report');
    expect(folder).toBe(join(world.userRoot, 'weekly-report'));
    const agent = await world.agent();
    expect(agent.loaded.diagnostics).toEqual([]);
    expect(agent.registry.names).toEqual(['skill', 'weekly-report__hello']);
    const result = await agent.call('weekly-report__hello', { who: 'Ada' });
    expect(result.output.split('\n')[0]).toBe('✅ skills weekly-report: hello → Hello, Ada!');
  });

  it('creates an Omni-style Python package (scripts/commands.py with @skill_script) that loads without a diagnostic and runs', async () => {
    const folder = await createSkillPackage(world.userRoot, 'weekly-report', { language: 'python' });
    const agent = await world.agent();
    expect(agent.loaded.diagnostics).toEqual([]);
    expect(agent.registry.names).toEqual(['skill', 'weekly-report__hello']);
    expect(agent.loaded.packages[0]?.commands[0]?.script).toBe(join(folder, 'scripts', 'commands.py'));
    const result = await agent.call('weekly-report__hello', { who: 'Ada' });
    expect(result.output.split('\n')[0]).toBe('✅ skills weekly-report: hello → Hello, Ada!');
  });

  it('refuses a name that is not portable, and never touches an existing folder', async () => {
    await expect(createSkillPackage(world.userRoot, 'Bad_Name')).rejects.toThrow('Expected a skill name of lowercase letters');
    await createSkillPackage(world.userRoot, 'taken');
    await expect(createSkillPackage(world.userRoot, 'taken')).rejects.toThrow('already exists');
  });
});
