import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
  await world.addUserPackages({
    deploy: skillPackage('name: deploy\ndescription: Deploys to production.\ndisable-model-invocation: true\ncommand: "echo deployed"'),
    notes: skillPackage('name: notes\ndescription: Takes notes.\ncommand: "echo noted"'),
  });
});
afterEach(() => world.dir.cleanup());

const names = (skills: readonly { name: string }[]) => skills.map((spec) => spec.name);

describe('disable-model-invocation: true', () => {
  it('hides the package from the model — the skill tool’s list and its tools — while a person still runs it', async () => {
    const agent = await world.agent();
    expect(names(agent.loaded.family.skills)).toEqual(['skill', 'notes']);
    const skill = agent.loaded.family.skills[0];
    expect(skill?.description).not.toContain('deploy');
    expect(JSON.stringify(skill?.parameters)).not.toContain('deploy');
    expect((await agent.call('skill', { name: 'deploy' })).success).toBe(false);
    expect(agent.loaded.packages.map((skillPackage) => [skillPackage.name, skillPackage.hiddenFromModel])).toEqual([
      ['deploy', true],
      ['notes', false],
    ]);

    const person = await world.agent({ load: { invokedBy: 'person' } });
    expect(names(person.loaded.family.skills)).toEqual(['skill', 'deploy', 'notes']);
    const result = await person.loaded.call(person.registry, 'deploy');
    expect(result.output.split('\n')[0]).toBe('✅ skills deploy: run → deployed');
  });

  it('hides it in a living library too: no ghost, no search result, no call by name', async () => {
    const library = await world.library({ maxLoaded: 1, pinned: ['notes'] });
    await library.refresh();
    expect(names(library.family.skills)).toEqual(['skill', 'skill_search', 'notes']);
    expect(await library.search('deploy production')).toEqual([]);
    await library.family.refresh('deploy');
    expect(names(library.family.skills)).not.toContain('deploy');

    const person = await world.library({ invokedBy: 'person', maxLoaded: 1, pinned: ['notes'] });
    await person.refresh();
    expect(names(person.family.skills)).toEqual(['skill', 'skill_search', 'notes', 'deploy']);
  });
});
