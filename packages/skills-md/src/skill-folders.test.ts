import { join } from 'node:path';
import { writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

/** One package in each folder another client uses, and one name in two of them. */
async function addOtherClientsPackages(): Promise<void> {
  await writeTree(join(world.cwd, '.github', 'skills'), {
    'from-github': skillPackage('name: from-github\ndescription: A Copilot project skill.'),
    shared: skillPackage('name: shared\ndescription: The project one.'),
  });
  await writeTree(join(world.homeDirectory, '.claude', 'skills'), {
    'from-claude': skillPackage('name: from-claude\ndescription: A Claude Code skill.'),
    shared: skillPackage('name: shared\ndescription: The user one.'),
  });
  await writeTree(join(world.homeDirectory, '.copilot', 'skills'), {
    'from-copilot': skillPackage('name: from-copilot\ndescription: A Copilot skill.'),
  });
  await writeTree(join(world.homeDirectory, '.config', 'agents', 'skills'), {
    'from-agents': skillPackage('name: from-agents\ndescription: A skill for any agent.'),
  });
}

describe('the folders other clients keep skills in', () => {
  it('are scanned too, project before user, each named as the config knows it, and a project package shadows a user one', async () => {
    await addOtherClientsPackages();
    const loaded = await world.load();
    expect(loaded.roots.map((root) => [root.source, root.scope])).toEqual([
      ['.nexus/skills', 'project'],
      ['.agents/skills', 'project'],
      ['.claude/skills', 'project'],
      ['.github/skills', 'project'],
      ['$XDG_CONFIG_HOME/nexus/skills', 'user'],
      ['~/.agents/skills', 'user'],
      ['~/.config/agents/skills', 'user'],
      ['~/.claude/skills', 'user'],
      ['~/.copilot/skills', 'user'],
    ]);
    expect(loaded.packages.map((skillPackage) => `${skillPackage.name} ${skillPackage.root.source}`)).toEqual([
      'from-github .github/skills',
      'shared .github/skills',
      'from-agents ~/.config/agents/skills',
      'from-claude ~/.claude/skills',
      'from-copilot ~/.copilot/skills',
    ]);
    expect(loaded.shadowed.map((skillPackage) => skillPackage.folder)).toEqual([join(world.homeDirectory, '.claude', 'skills', 'shared')]);
  });

  it('are left out when the options turn them off, one by one', async () => {
    await addOtherClientsPackages();
    const loaded = await world.load({ disabledFolders: ['.github/skills', '~/.copilot/skills'] });
    expect(loaded.roots.map((root) => root.source)).not.toContain('.github/skills');
    expect(loaded.packages.map((skillPackage) => skillPackage.name)).toEqual(['from-agents', 'from-claude', 'shared']);
    expect(loaded.packages.find((skillPackage) => skillPackage.name === 'shared')?.root.source).toBe('~/.claude/skills');
    expect(loaded.shadowed).toEqual([]);
  });

  it('refuses a folder name it does not know', async () => {
    await expect(world.load({ disabledFolders: ['~/.cursor/skills' as never] })).rejects.toThrow(
      'Expected `disabledFolders` to be a list of skill folder names (.nexus/skills, .agents/skills, .claude/skills, .github/skills, $XDG_CONFIG_HOME/nexus/skills, ~/.agents/skills, ~/.config/agents/skills, ~/.claude/skills, ~/.copilot/skills), got an array.',
    );
  });
});
