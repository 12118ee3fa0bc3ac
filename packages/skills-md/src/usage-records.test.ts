import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';
import { readSkillUsage, recordSkillUsage } from './usage-records.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

describe('usage records', () => {
  it('counts each successful run per skill and command, and none of the failed ones', async () => {
    await world.addUserPackages({
      tool: skillPackage('name: tool\ndescription: Tool.\ncommands:\n  ok: { command: "true" }\n  bad: { command: "false" }'),
    });
    const agent = await world.agent();
    await agent.call('tool__ok');
    await agent.call('tool__ok');
    await agent.call('tool__bad');
    // Written in the background, after the result.
    await vi.waitFor(async () => expect((await readSkillUsage(world.stateDirectory)).tool?.count).toBe(2));
    const usage = await readSkillUsage(world.stateDirectory);
    expect(usage).toEqual({
      tool: {
        count: 2,
        last_used: expect.stringMatching(/^\d{4}-/),
        commands: { ok: { count: 2, last_used: expect.stringMatching(/^\d{4}-/) } },
      },
    });
  });

  it('loses no count under concurrent runs', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, index) => recordSkillUsage(world.stateDirectory, 'busy', index % 2 ? 'a' : 'b')));
    expect(await readSkillUsage(world.stateDirectory)).toMatchObject({
      busy: { count: 40, commands: { a: { count: 20 }, b: { count: 20 } } },
    });
  });
});
