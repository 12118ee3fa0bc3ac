import { utilitySkills } from '@nexus/registry';
import { createTestAgent } from '@nexus/registry/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from './skill-diagnostic.js';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
  await world.addUserPackages({
    // Only echo of the other tools, and its own command.
    careful: skillPackage(
      'name: careful\ndescription: Careful work.\nallowed-tools: echo Read Bash(git:*) WebFetch Bash(npm run:*)\ncommand: "echo careful"',
    ),
    open: skillPackage('name: open\ndescription: No allowed-tools.'),
  });
});
afterEach(() => world.dir.cleanup());

async function agentWithUtilities() {
  const loaded = await world.load();
  const agent = createTestAgent({
    cwd: world.cwd,
    preset: 'trusted',
    families: [utilitySkills, loaded.family],
    services: { exec: { sandbox: 'none' } },
  });
  return Object.assign(agent, { loaded });
}

const listed = (agent: Awaited<ReturnType<typeof agentWithUtilities>>) =>
  agent.registry.getDefinitionsForPermissions(agent.services.getPermissions() as never).map((definition) => definition.function.name);

describe('allowed-tools', () => {
  it('is enforced from the skill call on: only the tools it names (mapped), the package’s own and skill are offered and accepted', async () => {
    const agent = await agentWithUtilities();
    expect((await agent.call('sleep', { seconds: 0 })).success).toBe(true);
    const taken = await agent.call('skill', { name: 'careful' });
    expect(taken.output).toContain(
      'While you follow this skill, only these tools are available: echo, read_file, tail, file_info, git, careful, skill, skill_search.',
    );
    const refused = await agent.call('sleep', { seconds: 0 });
    expect(refused).toMatchObject({ success: false, kind: 'forbidden' });
    expect(refused.error).toContain('Tool "sleep" is not one of the tools the skill "careful" allows');
    expect((await agent.call('echo', { message: 'still here' })).success).toBe(true);
    expect((await agent.call('careful')).success).toBe(true);
    expect(listed(agent)).toEqual(['echo', 'skill', 'careful']);

    const other = await agent.call('skill', { name: 'open' });
    expect(other.success).toBe(true);
    expect((await agent.call('sleep', { seconds: 0 })).success).toBe(true);
    expect(listed(agent)).toContain('sleep');
  });

  it('can only narrow: a tool the policy disables stays refused though the skill names it', async () => {
    const loaded = await world.load();
    const agent = createTestAgent({
      cwd: world.cwd,
      preset: 'trusted',
      families: [utilitySkills, loaded.family],
      tools: { echo: { enabled: false } },
    });
    await agent.call('skill', { name: 'careful' });
    expect((await agent.call('echo', { message: 'x' })).error).toBe('Tool "echo" is disabled by this agent\'s permissions.');
  });

  it('reports entries that map to no Nexus tool as warnings nexus skills check shows', async () => {
    const loaded = await world.load();
    const warnings = loaded.diagnostics.filter((diagnostic) => diagnostic.message.includes('allowed-tools')).map(formatDiagnostic);
    expect(warnings).toEqual([
      expect.stringMatching(
        /careful\/SKILL\.md:4:16: warning: `allowed-tools`: `WebFetch` maps to no Nexus tool, so it is not available while the skill is followed$/,
      ),
      expect.stringMatching(
        /careful\/SKILL\.md:4:16: warning: `allowed-tools`: `Bash\(npm run:\*\)` maps to no Nexus tool, so it is not available while the skill is followed$/,
      ),
    ]);
  });

  it('in a living library, tells the registry the listing changed, so an agent offers only the scope’s tools at its next step', async () => {
    const library = await world.library();
    const agent = createTestAgent({ cwd: world.cwd, preset: 'trusted', families: [utilitySkills, library.family] });
    await agent.registry.refresh();
    const before = agent.registry.version;
    await agent.call('skill', { name: 'careful' });
    expect(agent.registry.version).toBeGreaterThan(before);
    expect(listed(agent as never).sort()).toEqual(['careful', 'echo', 'skill', 'skill_search']);
    const narrowed = agent.registry.version;
    await agent.call('skill', { name: 'careful' });
    expect(agent.registry.version).toBe(narrowed);
    await agent.call('skill', { name: 'open' });
    expect(agent.registry.version).toBeGreaterThan(narrowed);
    expect(listed(agent as never)).toContain('sleep');
  });
});
