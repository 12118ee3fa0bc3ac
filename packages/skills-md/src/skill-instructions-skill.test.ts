import { join } from 'node:path';
import { authorizePath, PathSecurityError } from '@nexus/core';
import { writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SkillWorld, skillMd, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

describe('the skill instructions tool', () => {
  it('answers the SKILL.md body inside <skill_content>, with the folder and the other files (not their contents)', async () => {
    await world.addUserPackages({
      'pdf-tools': {
        'SKILL.md': skillMd('name: pdf\ndescription: Work with PDF files.', '# PDF\n\nRead references/forms.md for forms.\n'),
        'README.md': 'people only',
        references: { 'forms.md': 'SECRET-FORM-CONTENT' },
        scripts: { 'fill.py': 'print(1)' },
      },
    });
    const agent = await world.agent({ preset: 'sandboxed' });
    const definition = agent.registry.getDefinitions({ format: 'anthropic' })[0];
    expect(definition).toMatchObject({
      name: 'skill',
      input_schema: { properties: { name: { enum: ['pdf', 'pdf-tools'] } }, required: ['name'] },
    });
    expect(definition?.description).toContain('- pdf: Work with PDF files.');
    const result = await agent.call('skill', { name: 'pdf' });
    expect(result.success, result.error).toBe(true);
    expect(result.output).toBe(
      [
        '<skill_content name="pdf">',
        '# PDF\n\nRead references/forms.md for forms.',
        '</skill_content>',
        '',
        `Folder: ${join(world.userRoot, 'pdf-tools')}`,
        'Other files (read them when the instructions point to them):',
        '- README.md',
        '- references/forms.md',
        '- scripts/fill.py',
      ].join('\n'),
    );
    expect(result.output).not.toContain('SECRET-FORM-CONTENT');
    expect((await agent.call('skill', { name: 'pdf-tools' })).success).toBe(true);
  });

  it('makes the folder of the package taken readable at sandboxed, read-only, and no other folder', async () => {
    // As Claude Code writes one: a name, a description, a body pointing to references/, a script.
    const claudeRoot = join(world.homeDirectory, '.claude', 'skills');
    await writeTree(claudeRoot, {
      'release-notes': {
        'SKILL.md': skillMd(
          'name: release-notes\ndescription: Write release notes from the git log.',
          '# Release notes\n\nFollow references/style.md. Run scripts/collect.sh to gather the commits.\n',
        ),
        references: { 'style.md': 'One line per change.' },
        scripts: { 'collect.sh': 'git log --oneline\n' },
      },
      other: skillPackage('name: other\ndescription: Another one.'),
    });
    const agent = await world.agent({ preset: 'sandboxed' });
    const style = join(claudeRoot, 'release-notes', 'references', 'style.md');
    const refused = (path: string, access: 'read' | 'write' = 'read') =>
      expect(authorizePath(agent.services, access === 'read' ? 'read_file' : 'write_file', path, { access })).rejects.toSatisfy(
        (error: unknown) => PathSecurityError.isInstance(error),
      );
    await refused(style);
    const taken = await agent.call('skill', { name: 'release-notes' });
    expect(taken.output).toContain('Follow references/style.md.');
    await expect(authorizePath(agent.services, 'read_file', style)).resolves.toBe(style);
    await expect(
      authorizePath(agent.services, 'read_file', join(claudeRoot, 'release-notes', 'scripts', 'collect.sh')),
    ).resolves.toBeTruthy();
    await refused(style, 'write');
    await refused(join(claudeRoot, 'other', 'SKILL.md'));
    await refused(join(world.homeDirectory, '.claude', 'settings.json'));
  });

  it('marks an untrusted project skill', async () => {
    await world.addProjectPackages({ deploy: skillPackage('name: deploy\ndescription: Deploys.\ncommand: "true"') });
    const result = await (await world.agent()).call('skill', { name: 'deploy' });
    expect(result.output).toContain(
      '[untrusted project skill, not trusted yet: its commands are off until the user runs `nexus skills trust deploy`]',
    );
    expect(result.data).toMatchObject({ trusted: false, commands: [] });
  });

  it('refuses a word two packages answer to, naming both folders', async () => {
    await world.addUserPackages({
      alpha: skillPackage('name: beta\ndescription: Named beta.'),
      beta: skillPackage('name: gamma\ndescription: In folder beta.'),
    });
    const result = await (await world.agent()).call('skill', { name: 'beta' });
    expect(result.success).toBe(false);
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toContain(`${join(world.userRoot, 'alpha')} and ${join(world.userRoot, 'beta')}`);
  });

  it('fails with not_found when the SKILL.md went away', async () => {
    await world.addUserPackages({ gone: skillPackage('name: gone\ndescription: Gone.') });
    const agent = await world.agent();
    await (await import('node:fs/promises')).rm(join(world.userRoot, 'gone', 'SKILL.md'));
    const result = await agent.call('skill', { name: 'gone' });
    expect(result.success).toBe(false);
    expect(result.error).toContain('SKILL.md is missing');
  });
});
