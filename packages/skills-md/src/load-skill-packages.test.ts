import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SCAN_DIRECTORIES } from './discover-skill-packages.js';
import { formatDiagnostic, type SkillDiagnostic } from './skill-diagnostic.js';
import { type SkillWorld, skillMd, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

const errors = (diagnostics: readonly SkillDiagnostic[]) =>
  diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map(formatDiagnostic);

describe('loading skill packages', () => {
  it('loads a command package as the tool <name>, a commands map as <name>__<command>, and the skill tool', async () => {
    await world.addUserPackages({
      hello: skillPackage(
        'name: hello\ndescription: Says hello.\ncommand: "echo hello {who}"\nparameters:\n  who: { type: string, required: true }',
      ),
      'git-tools': skillPackage(
        'name: git-tools\ndescription: Git helpers.\ncommands:\n  status: { command: "git status", category: read }\n  log: { command: "git log -n {count}", parameters: { count: { type: integer, default: 5 } } }',
      ),
      'just-words': skillPackage('name: just-words\ndescription: Instructions only.'),
    });
    const loaded = await world.load();
    expect(errors(loaded.diagnostics)).toEqual([]);
    expect(loaded.family.name).toBe('skills');
    expect(loaded.family.skills.map((spec) => spec.name)).toEqual(['skill', 'git-tools__status', 'git-tools__log', 'hello']);
    const status = loaded.family.skills.find((spec) => spec.name === 'git-tools__status');
    expect(status).toMatchObject({ readOnly: true, destructive: false, minimumLevel: 'trusted' });
    const hello = loaded.family.skills.find((spec) => spec.name === 'hello');
    expect(hello?.parameters).toEqual({
      type: 'object',
      properties: { who: { type: 'string', description: 'Required.' } },
      additionalProperties: false,
    });
    expect(loaded.packages.map((skillPackage) => [skillPackage.name, skillPackage.trust])).toEqual([
      ['git-tools', 'user'],
      ['hello', 'user'],
      ['just-words', 'user'],
    ]);
  });

  it('offers no tool at all when there is no package', async () => {
    const loaded = await world.load();
    expect(loaded.family.skills).toEqual([]);
    expect(loaded.diagnostics).toEqual([]);
  });

  it('reports each package that cannot load with file:line:col and the reason, and loads the rest', async () => {
    await world.addUserPackages({
      'no-close': { 'SKILL.md': '---\nname: no-close\ndescription: x\n' },
      'bad-yaml': { 'SKILL.md': '---\nname: bad-yaml\ndescription: "open\n---\n' },
      'no-description': { 'SKILL.md': skillMd('name: no-description') },
      'bad-command': {
        'SKILL.md': skillMd('name: bad-command\ndescription: d\ncommands:\n  go:\n    command: "ls"\n    category: destroy'),
      },
      'not-frontmatter': { 'SKILL.md': '# Just markdown\n' },
      'dup-keys': { 'SKILL.md': skillMd('name: dup-keys\ndescription: a\ndescription: b') },
      fine: skillPackage('name: fine\ndescription: Fine.'),
    });
    const loaded = await world.load();
    expect(loaded.packages.map((skillPackage) => skillPackage.name)).toEqual(['fine']);
    expect(loaded.broken).toHaveLength(6);
    const file = (folder: string) => join(world.userRoot, folder, 'SKILL.md');
    expect(errors(loaded.diagnostics).sort()).toEqual(
      [
        `${file('bad-command')}:7:15: error: \`commands.go.category\`: Invalid option: expected one of "read"|"view"|"write"|"workflow"|"general"`,
        `${file('bad-yaml')}:3:19: error: the frontmatter is not valid YAML: Missing closing "quote`,
        `${file('dup-keys')}:4:1: error: the frontmatter is not valid YAML: Map keys must be unique`,
        `${file('no-close')}:1:1: error: the frontmatter has no closing \`---\` line`,
        `${file('no-description')}:2:1: error: \`description\`: a \`description\` is required: say what the skill does and when to use it`,
        `${file('not-frontmatter')}:1:1: error: SKILL.md must start with a YAML frontmatter block: a first line \`---\``,
      ].sort(),
    );
  });

  it('refuses a SKILL.md of 10 MB unread, and a YAML alias bomb quickly, naming the alias', async () => {
    const aliases = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [index, name] of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].entries()) {
      const previous = String.fromCharCode('a'.charCodeAt(0) + index);
      aliases.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    await world.addUserPackages({
      huge: { 'SKILL.md': skillMd('name: huge\ndescription: Huge.', 'x'.repeat(10 * 1024 * 1024)) },
      bomb: { 'SKILL.md': skillMd(`name: bomb\ndescription: Boom.\n${aliases.join('\n')}`) },
    });
    const loaded = await world.load();
    expect(errors(loaded.diagnostics).sort()).toEqual([
      `${join(world.userRoot, 'bomb', 'SKILL.md')}:5:8: error: the frontmatter's aliases expand too much (a YAML alias bomb): Excessive alias count indicates a resource exhaustion attack`,
      `${join(world.userRoot, 'huge', 'SKILL.md')}:1:1: error: SKILL.md is 10.0 MiB; at most 1 MiB is read`,
    ]);
  });

  it('offers no command of a package too large to tell a change in (its approvals could not), and loads one without commands', async () => {
    const files = Object.fromEntries(Array.from({ length: 2_001 }, (_, index) => [`note-${index}.md`, '']));
    await world.addUserPackages({
      bulky: skillPackage('name: bulky\ndescription: Bulky.\ncommand: "echo bulky"', { references: files }),
      notes: skillPackage('name: notes\ndescription: Notes only.', { references: files }),
    });
    const loaded = await world.load();
    expect(errors(loaded.diagnostics)).toEqual([
      `${join(world.userRoot, 'bulky', 'SKILL.md')}:1:1: error: ${join(world.userRoot, 'bulky')} holds more than 2000 files; a skill package that large is not read. Its commands are not offered.`,
    ]);
    expect(loaded.packages.map((each) => each.name)).toEqual(['notes']);
  });

  it('refuses a template with a shell operator and a program escaping the package, at the command line', async () => {
    await world.dir.cleanup().then(() => undefined);
    world = await skillWorld();
    await writeTree(world.dir.path, { 'outside.sh': { content: '#!/bin/sh\necho out\n', mode: 0o755 } });
    await world.addUserPackages({
      piped: skillPackage('name: piped\ndescription: Pipes.\ncommand: "cat {file} | sh"\nparameters:\n  file: { type: path }'),
      substituted: skillPackage('name: substituted\ndescription: Subs.\ncommand: "echo $(id)"'),
      escaping: skillPackage('name: escaping\ndescription: Escapes.\ncommand: "../../../../outside.sh"'),
      absolute: skillPackage('name: absolute\ndescription: Absolute.\ncommand: "/bin/sh -c id"'),
      linked: skillPackage('name: linked\ndescription: Linked.\ncommand: "./run.sh"', {
        'run.sh': { symlink: join(world.dir.path, 'outside.sh') },
      }),
      unknown: skillPackage('name: unknown\ndescription: Unknown placeholder.\ncommand: "echo {nope}"'),
      program: skillPackage(
        'name: program\ndescription: Program from a value.\ncommand: "{tool} x"\nparameters:\n  tool: { type: string }',
      ),
    });
    const loaded = await world.load();
    const file = (folder: string) => join(world.userRoot, folder, 'SKILL.md');
    expect(loaded.packages).toEqual([]);
    expect(errors(loaded.diagnostics).sort()).toEqual(
      [
        `${file('absolute')}:4:10: error: the program "/bin/sh" is outside the package folder; a program with a "/" must be a file inside it`,
        `${file('escaping')}:4:10: error: the program "../../../../outside.sh" is outside the package folder; a program with a "/" must be a file inside it`,
        `${file('linked')}:4:10: error: the program "./run.sh" does not exist inside the package folder (or leads out of it)`,
        `${file('piped')}:4:10: error: the template contains the pipe \`|\` at position 12; it runs a single program without a shell, so shell syntax is refused. Templates run one program without a shell.`,
        `${file('program')}:4:10: error: the program cannot come from a parameter; it must be written in the template`,
        `${file('substituted')}:4:10: error: the template contains a command substitution \`$(\` at position 6; it runs a single program without a shell, so shell syntax is refused. Templates run one program without a shell.`,
        `${file('unknown')}:4:10: error: the placeholder {nope} names no parameter (parameters: none)`,
      ].sort(),
    );
  });

  it('refuses a symlinked package folder that points outside its root, and follows one inside it', async () => {
    await writeTree(world.dir.path, { elsewhere: { evil: skillPackage('name: evil\ndescription: Evil.\ncommand: "id"') } });
    await world.addUserPackages({
      real: skillPackage('name: real\ndescription: Real.'),
      nested: { inner: skillPackage('name: inner\ndescription: Inner.') },
    });
    await symlink(join(world.dir.path, 'elsewhere', 'evil'), join(world.userRoot, 'evil'));
    await symlink(join(world.userRoot, 'nested', 'inner'), join(world.userRoot, 'alias'));
    const loaded = await world.load();
    expect(loaded.packages.map((skillPackage) => skillPackage.name)).toEqual(['inner', 'real']);
    expect(errors(loaded.diagnostics)).toEqual([
      `${join(world.userRoot, 'evil')}:1:1: error: refused: the package folder is a symlink to ${join(world.dir.path, 'elsewhere', 'evil')}, outside its root ${world.userRoot}`,
    ]);
  });

  it('refuses two packages with one name in one root, naming both folders', async () => {
    await world.addUserPackages({
      a: { twin: skillPackage('name: twin\ndescription: One.') },
      b: { twin: skillPackage('name: twin\ndescription: Two.') },
    });
    const loaded = await world.load();
    expect(loaded.packages).toEqual([]);
    const both = `${join(world.userRoot, 'a', 'twin')} and ${join(world.userRoot, 'b', 'twin')}`;
    expect(errors(loaded.diagnostics)).toEqual([
      `${join(world.userRoot, 'a', 'twin', 'SKILL.md')}:1:1: error: two skill packages are named "twin": ${both}; neither is loaded`,
      `${join(world.userRoot, 'b', 'twin', 'SKILL.md')}:1:1: error: two skill packages are named "twin": ${both}; neither is loaded`,
    ]);
    expect(() => loaded.resolve('twin')).toThrow(both);
  });

  it('lets a project skill shadow a user skill of the same name, with a warning naming both folders', async () => {
    await world.addUserPackages({ tidy: skillPackage('name: tidy\ndescription: User tidy.') });
    await world.addProjectPackages({ tidy: skillPackage('name: tidy\ndescription: Project tidy.') });
    const loaded = await world.load();
    expect(loaded.packages.map((skillPackage) => [skillPackage.description, skillPackage.root.scope])).toEqual([
      ['Project tidy.', 'project'],
    ]);
    expect(loaded.shadowed.map((skillPackage) => skillPackage.folder)).toEqual([join(world.userRoot, 'tidy')]);
    expect(loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning').map((diagnostic) => diagnostic.message)).toEqual([
      `this project skill "tidy" (${join(world.projectRoot, 'tidy')}) shadows the one in ${join(world.userRoot, 'tidy')}`,
    ]);
  });

  it('loads a name that differs from its folder or breaks the portable rules with warnings, and notes seed keys as not portable', async () => {
    await world.addUserPackages({
      folder: skillPackage('name: Other_Name\ndescription: Named differently.\nversion: "2.0.0"\nrouting_keywords: [a]'),
      long: skillPackage(`name: ${'l'.repeat(70)}\ndescription: Long.`),
    });
    const loaded = await world.load();
    expect(loaded.packages.map((skillPackage) => skillPackage.name).sort()).toEqual(['Other_Name', 'l'.repeat(70)]);
    const messages = loaded.diagnostics.map((diagnostic) => `${diagnostic.severity}: ${diagnostic.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'warning: the name "Other_Name" differs from the folder name "folder"',
        'warning: portable names are lowercase letters, digits and single hyphens',
        'note: not portable: other clients reject the keys `version`, `routing_keywords`',
        'warning: the name is 70 characters; at most 64 are portable',
      ]),
    );
  });

  it('loads metadata values that are not strings: scalars as written, with a warning naming the key; nested ones left out', async () => {
    await world.addUserPackages({
      portable: skillPackage(
        'name: portable\ndescription: Portable.\nmetadata:\n  version: 1.0\n  stable: true\n  owner:\n  team: core\n  tags: [a, b]',
      ),
      odd: skillPackage('name: odd\ndescription: Odd metadata.\nmetadata: [1, 2]'),
    });
    const loaded = await world.load();
    expect(errors(loaded.diagnostics)).toEqual([]);
    const byName = Object.fromEntries(loaded.packages.map((skillPackage) => [skillPackage.name, skillPackage.manifest.metadata]));
    expect(byName).toEqual({ portable: { version: '1.0', stable: 'true', owner: '', team: 'core' }, odd: undefined });
    const warnings = loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning').map(formatDiagnostic);
    const file = (folder: string) => join(world.userRoot, folder, 'SKILL.md');
    expect(warnings).toEqual(
      expect.arrayContaining([
        `${file('portable')}:5:12: warning: \`metadata.version\` is a number; metadata values are strings, so it is read as "1.0" (quote it for other clients)`,
        `${file('portable')}:6:11: warning: \`metadata.stable\` is a boolean; metadata values are strings, so it is read as "true" (quote it for other clients)`,
        `${file('portable')}:7:9: warning: \`metadata.owner\` is empty (null); metadata values are strings, so it is read as "" (quote it for other clients)`,
        `${file('portable')}:9:9: warning: \`metadata.tags\` is a list; metadata values are strings, so it is left out`,
        `${file('odd')}:4:11: warning: \`metadata\` is a list; it must map keys to strings, so it is left out`,
      ]),
    );
  });

  it('resolves a skill by name or by folder name, and refuses a word two packages answer to', async () => {
    await world.addUserPackages({
      'md-tools-v1': skillPackage('name: markdown-converter\ndescription: Converts.'),
      other: skillPackage('name: md-tools-v1\ndescription: Confusing.'),
      'plain-folder': skillPackage('name: plain\ndescription: Plain.'),
    });
    const loaded = await world.load();
    expect(loaded.resolve('markdown-converter').folder).toBe(join(world.userRoot, 'md-tools-v1'));
    expect(loaded.resolve('plain-folder').name).toBe('plain');
    expect(() => loaded.resolve('md-tools-v1')).toThrow(`${join(world.userRoot, 'md-tools-v1')} and ${join(world.userRoot, 'other')}`);
    expect(() => loaded.resolve('absent')).toThrow('No skill package is named "absent"');
  });

  it('skips .git and node_modules, and says where the scan stopped (depth, directory count)', async () => {
    await world.addUserPackages({
      node_modules: { hidden: skillPackage('name: hidden\ndescription: In node_modules.') },
      '.git': { gitted: skillPackage('name: gitted\ndescription: In .git.') },
      a: {
        b: {
          c: { d: skillPackage('name: deep-ok\ndescription: Depth 4.'), e: { f: skillPackage('name: too-deep\ndescription: Depth 6.') } },
        },
      },
    });
    const loaded = await world.load();
    expect(loaded.packages.map((skillPackage) => skillPackage.name)).toEqual(['deep-ok']);
    expect(loaded.diagnostics.map((diagnostic) => diagnostic.message)).toContain(
      'the scan stops at depth 4; deeper folders were not looked at',
    );

    const many = Object.fromEntries(Array.from({ length: MAX_SCAN_DIRECTORIES + 5 }, (_, index) => [`d${index}`, {}]));
    await writeTree(join(world.cwd, '.claude', 'skills'), many);
    const stopped = await world.load();
    expect(stopped.diagnostics.map(formatDiagnostic)).toContain(
      `${join(world.cwd, '.claude', 'skills')}:1:1: warning: the scan stopped after ${MAX_SCAN_DIRECTORIES} directories; packages further on were not looked for`,
    );
  });

  it('leaves a command whose tool name another family uses out, with a diagnostic', async () => {
    await world.addUserPackages({ echo: skillPackage('name: echo\ndescription: Shadowing a built-in.\ncommand: "echo hi"') });
    const loaded = await world.load({ reservedToolNames: ['echo', 'read_file'] });
    expect(loaded.family.skills.map((spec) => spec.name)).toEqual(['skill']);
    expect(errors(loaded.diagnostics)).toEqual([
      `${join(world.userRoot, 'echo', 'SKILL.md')}:1:1: error: the tool name "echo" is already taken; the command \`run\` is left out`,
    ]);
  });

  it('checks its options', async () => {
    await expect(world.load({ cwd: 'relative' })).rejects.toThrow('Expected `cwd` to be an absolute path, got "relative".');
    await expect(world.load({ maxOutputBytes: 0 })).rejects.toThrow('Expected `maxOutputBytes` to be a positive number, got 0.');
    await writeFile(join(world.cwd, 'x'), '');
  });
});
