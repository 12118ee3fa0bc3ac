import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from './skill-diagnostic.js';
import { type SkillWorld, skillMd, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

const errors = (diagnostics: readonly { severity: string }[]) =>
  diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => formatDiagnostic(diagnostic as never));

describe('typed commands in agents/nexus.yaml, beside a portable SKILL.md', () => {
  it('loads the command from the side file, and the package stays portable', async () => {
    await world.addUserPackages({
      convert: skillPackage('name: convert\ndescription: Converts text to upper case.', {
        agents: {
          'nexus.yaml': 'command: "tr a-z A-Z"\ncategory: read\ncommands:\n',
          'openai.yaml': 'interface:\n  display_name: Convert\n',
        },
      }),
      shout: skillPackage('name: shout\ndescription: Shouts.', {
        agents: { 'nexus.yaml': 'command: "echo {who}"\nparameters:\n  who: { type: string, required: true }\nrouting_keywords: [loud]\n' },
      }),
      seedish: skillPackage('name: seedish\ndescription: Keeps its command in SKILL.md.\ncommand: "echo hi"\nversion: "1.0"'),
    });
    const agent = await world.agent();
    expect(errors(agent.loaded.diagnostics)).toEqual([
      expect.stringMatching(
        /convert\/agents\/nexus\.yaml:3:10: error: `commands`: expected record, received null|convert\/agents\/nexus\.yaml:3:/,
      ),
    ]);
    const shout = agent.loaded.packages.find((skillPackage) => skillPackage.name === 'shout');
    expect(shout?.portability).toEqual([]);
    expect(shout?.commands.map((command) => command.tool)).toEqual(['shout']);
    expect((await agent.call('shout', { who: 'Ada' })).output.split('\n')[0]).toBe('✅ skills shout: run → Ada');
    expect(agent.loaded.diagnostics.map(formatDiagnostic).filter((line) => line.includes('shout') && line.includes('portable'))).toEqual(
      [],
    );
    expect(agent.loaded.packages.find((skillPackage) => skillPackage.name === 'seedish')?.portability).toEqual([
      'SKILL.md has the keys `command`, `version` (move them to agents/nexus.yaml)',
    ]);
  });

  it('refuses a portable key in the side file, a key in both files, and a side file that does not parse, at its line and column', async () => {
    await world.addUserPackages({
      both: skillPackage('name: both\ndescription: Both.\ncommand: "echo a"', {
        agents: { 'nexus.yaml': '# extras\ncommand: "echo b"\n' },
      }),
      portable: skillPackage('name: portable\ndescription: P.', { agents: { 'nexus.yaml': 'description: Elsewhere.\n' } }),
      broken: { 'SKILL.md': skillMd('name: broken\ndescription: B.'), agents: { 'nexus.yaml': 'command: "echo\n' } },
    });
    const loaded = await world.load();
    const file = (folder: string) => join(world.userRoot, folder, 'agents', 'nexus.yaml');
    expect(errors(loaded.diagnostics).sort()).toEqual([
      `${file('both')}:2:10: error: \`command\` is in SKILL.md too (4:10); keep it in one place`,
      expect.stringMatching(new RegExp(`^${file('broken')}:\\d+:\\d+: error: agents/nexus.yaml is not valid YAML`)),
      `${file('portable')}:1:14: error: \`description\` is a portable key: it belongs in SKILL.md`,
    ]);
  });

  it('lists the side file’s commands in a living library, and follows an edit of it', async () => {
    await world.addUserPackages({
      shout: skillPackage('name: shout\ndescription: Shouts.', { agents: { 'nexus.yaml': 'command: "echo loud"\n' } }),
    });
    const agent = await world.libraryAgent({ watch: false, checkIntervalMs: 0 });
    expect((await agent.call('shout')).output.split('\n')[0]).toBe('✅ skills shout: run → loud');
    await writeFile(join(world.userRoot, 'shout', 'agents', 'nexus.yaml'), 'command: "echo louder"\n');
    await agent.registry.refresh();
    expect((await agent.call('shout')).output.split('\n')[0]).toBe('✅ skills shout: run → louder');
  });
});
