import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SkillWorld, skillPackage, skillWorld } from './test-fixtures.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

describe('loading skill packages', () => {
  it('loads a command package as the tool <name> and the skill tool', async () => {
    await world.addUserPackages({
      hello: skillPackage(
        'name: hello\ndescription: Says hello.\ncommand: "echo hello {who}"\nparameters:\n  who: { type: string, required: true }',
      ),
    });
    const loaded = await world.load();
    expect(loaded.broken).toEqual([]);
    expect(loaded.family.skills.map((spec) => spec.name)).toEqual(['skill', 'hello']);
    expect(loaded.packages[0]).toMatchObject({ name: 'hello', trust: 'user', trusted: true });
  });
});
