import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RegistryChange } from '@nexus/registry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashSkillPackage } from './index.js';
import { formatDiagnostic, type SkillDiagnostic } from './skill-diagnostic.js';
import { executable, type SkillWorld, skillMd, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

/** Poll bound: generous, for a loaded CI machine; the condition usually holds within a few checks. */
const POLL = { timeout: 20_000, interval: 20 };

const commandPackage = (name: string, description: string, command = `echo ${name}`) =>
  skillPackage(`name: ${name}\ndescription: ${description}\ncommand: "${command}"`);

const descriptions = (registry: { getDefinitions(): { function: { name: string; description: string } }[] }) =>
  Object.fromEntries(registry.getDefinitions().map((tool) => [tool.function.name, tool.function.description]));

describe('a living skill library', () => {
  it('follows edits, broken edits, fixes, additions and removals on disk, through the watcher alone', async () => {
    await world.addUserPackages({ alpha: commandPackage('alpha', 'First version.'), beta: commandPackage('beta', 'Stays.') });
    const agent = await world.libraryAgent();
    const changes: RegistryChange[] = [];
    agent.registry.onChange((change) => changes.push(change));
    const problems: SkillDiagnostic[] = [];
    agent.library.onDiagnostic((diagnostic) => problems.push(diagnostic));
    expect(descriptions(agent.registry).alpha).toBe('First version.');

    await writeFile(join(world.userRoot, 'alpha', 'SKILL.md'), skillMd('name: alpha\ndescription: Second version.\ncommand: "echo two"'));
    await expect.poll(() => descriptions(agent.registry).alpha, POLL).toBe('Second version.');
    expect(changes.at(-1)).toMatchObject({ added: [], removed: [], changed: expect.arrayContaining(['alpha']) });
    expect((await agent.call('alpha')).output).toContain('two');

    await writeFile(join(world.userRoot, 'alpha', 'SKILL.md'), '---\nname: alpha\ndescription: "never closed\n---\n');
    await expect.poll(() => problems.map(formatDiagnostic).join('\n'), POLL).toContain('previous version stays in use');
    expect(problems.map(formatDiagnostic).join('\n')).toMatch(/alpha\/SKILL\.md:\d+:\d+: error: the frontmatter is not valid YAML/);
    expect(descriptions(agent.registry).alpha).toBe('Second version.');
    expect((await agent.call('alpha')).output).toContain('two');

    await writeFile(join(world.userRoot, 'alpha', 'SKILL.md'), skillMd('name: alpha\ndescription: Fixed.\ncommand: "echo three"'));
    await expect.poll(() => descriptions(agent.registry).alpha, POLL).toBe('Fixed.');
    expect(agent.library.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')).toEqual([]);

    await world.addUserPackages({ gamma: commandPackage('gamma', 'New here.') });
    await expect.poll(() => agent.registry.names.includes('gamma'), POLL).toBe(true);
    expect((await agent.call('gamma')).output).toContain('gamma');

    await rm(join(world.userRoot, 'beta'), { recursive: true });
    await expect.poll(() => agent.registry.names.includes('beta'), POLL).toBe(false);
    expect((await agent.call('beta')).kind).toBe('not_found');
  });

  it('sees a change at the next call or listing without a watcher', async () => {
    await world.addUserPackages({ alpha: commandPackage('alpha', 'Before.', 'echo before') });
    const agent = await world.libraryAgent({ watch: false, checkIntervalMs: 0 });
    await writeFile(join(world.userRoot, 'alpha', 'SKILL.md'), skillMd('name: alpha\ndescription: After.\ncommand: "echo after"'));
    expect((await agent.call('alpha')).output).toContain('after');
    await world.addUserPackages({ late: commandPackage('late', 'Arrived.') });
    await agent.registry.refresh();
    expect(descriptions(agent.registry).late).toBe('Arrived.');
    await world.addUserPackages({ later: commandPackage('later', 'Called by name first.') });
    expect((await agent.call('later')).output).toContain('later');
  });

  it("gives a package's tools the package's digest, taken anew when the package changes (an approval asked before is then stale)", async () => {
    await world.addUserPackages({ alpha: commandPackage('alpha', 'Before.', 'echo before') });
    const agent = await world.libraryAgent({ watch: false, checkIntervalMs: 0 });
    const folder = join(world.userRoot, 'alpha');
    const before = agent.registry.getSpec('alpha')?.packageDigest;
    expect(before).toBe(await hashSkillPackage(folder));
    await writeFile(join(folder, 'SKILL.md'), skillMd('name: alpha\ndescription: After.\ncommand: "echo after"'));
    await agent.registry.refresh();
    const after = agent.registry.getSpec('alpha')?.packageDigest;
    expect(after).toBe(await hashSkillPackage(folder));
    expect(after).not.toBe(before);
  });

  it('lets a call that started on the old version finish on it', async () => {
    const wait = executable(': > "$2.started"; while [ ! -e "$2" ]; do sleep 0.02; done; echo "$1"\n');
    await world.addUserPackages({
      slow: skillPackage(
        'name: slow\ndescription: Old.\ncommand: "./scripts/wait.sh v1 {gate}"\nparameters:\n  gate: { type: string, required: true }',
        {
          scripts: { 'wait.sh': wait },
        },
      ),
    });
    const agent = await world.libraryAgent({ watch: false, checkIntervalMs: 0 });
    const gate = join(world.cwd, 'gate');
    const running = agent.call('slow', { gate });
    await expect.poll(() => existsSync(`${gate}.started`), POLL).toBe(true);
    await writeFile(
      join(world.userRoot, 'slow', 'SKILL.md'),
      skillMd(
        'name: slow\ndescription: New.\ncommand: "./scripts/wait.sh v2 {gate}"\nparameters:\n  gate: { type: string, required: true }',
      ),
    );
    await agent.registry.refresh();
    expect(descriptions(agent.registry).slow).toBe('New.');
    await writeFile(gate, '');
    expect((await running).output).toContain('v1');
    expect((await agent.call('slow', { gate })).output).toContain('v2');
  });

  it('checks script commands with node --check before the new module replaces the old, which keeps answering until then', async () => {
    const module = (body: string) => `export const greet = { name: 'greet', description: 'Greets.', run: () => ${body} };\n`;
    await world.addUserPackages({
      scripted: skillPackage('name: scripted\ndescription: Scripted.', { scripts: { 'commands.mjs': module("'hello v1'") } }),
    });
    const agent = await world.libraryAgent({ watch: false, checkIntervalMs: 0 });
    expect((await agent.call('scripted__greet')).output).toContain('hello v1');
    const file = join(world.userRoot, 'scripted', 'scripts', 'commands.mjs');
    await writeFile(file, `${module("'hello v2'")}\nexport const broken = {;\n`);
    await agent.registry.refresh();
    expect(agent.library.diagnostics.map(formatDiagnostic).join('\n')).toMatch(
      /commands\.mjs:3:\d+: error: scripts\/commands\.mjs has a syntax error/,
    );
    expect(agent.registry.names).toContain('scripted__greet');
    expect((await agent.call('scripted__greet')).output).toContain('hello v1');
    await writeFile(file, `${module("'hello v2'")}throw new Error('not ready');\n`);
    await agent.registry.refresh();
    expect(agent.library.diagnostics.map(formatDiagnostic).join('\n')).toMatch(
      /commands\.mjs:2:\d+: error: the module cannot be loaded: .*not ready/,
    );
    expect((await agent.call('scripted__greet')).output).toContain('hello v1');
    await writeFile(file, `${module("'hello v3'")}export const wave = { name: 'wave', description: 'Waves.', run: () => 'bye' };\n`);
    await agent.registry.refresh();
    expect((await agent.call('scripted__greet')).output).toContain('hello v3');
    expect((await agent.call('scripted__wave')).output).toContain('bye');
  });
});

describe('ghost tools and LRU loading', () => {
  const forty = () =>
    Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => {
        const name = `pkg-${String(index).padStart(2, '0')}`;
        return [
          name,
          skillPackage(
            `name: ${name}\ndescription: Package ${index}.\ncommand: "echo ${name} {times}"\nparameters:\n  times: { type: integer, default: 1 }`,
          ),
        ];
      }),
    );
  const loadedNames = (agent: { library: { packages: readonly { name: string; state: string }[] } }) =>
    agent.library.packages.filter((skillPackage) => skillPackage.state === 'loaded').map((skillPackage) => skillPackage.name);

  it('loads maxLoaded packages (pinned first), lists the rest as ghosts, and loads a ghost on use in place of the least recently used', async () => {
    await world.addUserPackages(forty());
    const agent = await world.libraryAgent({ maxLoaded: 5, pinned: ['pkg-39'] });
    expect(loadedNames(agent).sort()).toEqual(['pkg-00', 'pkg-01', 'pkg-02', 'pkg-03', 'pkg-39']);
    const listed = descriptions(agent.registry);
    expect(Object.keys(listed)).toHaveLength(42);
    expect(listed['pkg-20']).toMatch(/^\[GHOST\] Package 20\./);
    expect(agent.registry.getSpec('pkg-20')?.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: true });
    expect(agent.registry.getSpec('pkg-00')?.parameters.properties).toHaveProperty('times');

    for (const name of ['pkg-00', 'pkg-01', 'pkg-02', 'pkg-03']) expect((await agent.call(name)).success).toBe(true);
    const refused = await agent.call('pkg-20', { times: 'many' });
    expect(refused).toMatchObject({ kind: 'invalid_input' });
    expect(refused.error).toContain('`times`');
    expect(loadedNames(agent).sort()).toEqual(['pkg-01', 'pkg-02', 'pkg-03', 'pkg-20', 'pkg-39']);
    expect(descriptions(agent.registry)['pkg-20']).toBe('Package 20.');
    expect(descriptions(agent.registry)['pkg-00']).toMatch(/^\[GHOST\]/);

    expect((await agent.call('pkg-30', { times: 2 })).output).toContain('pkg-30 2');
    expect(loadedNames(agent).sort()).toEqual(['pkg-02', 'pkg-03', 'pkg-20', 'pkg-30', 'pkg-39']);
    for (const name of ['pkg-31', 'pkg-32', 'pkg-33', 'pkg-34', 'pkg-35']) await agent.call(name);
    expect(loadedNames(agent)).toContain('pkg-39');
    expect(loadedNames(agent)).toHaveLength(5);
  });

  it('starts with the most used packages loaded', async () => {
    await world.addUserPackages(forty());
    await writeFile(
      join(world.stateDirectory, 'skills-usage.json'),
      JSON.stringify({ 'pkg-30': { count: 9, last_used: '2026-01-01T00:00:00Z', commands: {} } }),
    );
    const agent = await world.libraryAgent({ maxLoaded: 2 });
    expect(loadedNames(agent).sort()).toEqual(['pkg-00', 'pkg-30']);
  });

  it('never lists more than maxTools tools; an unlisted tool still loads when called by name', async () => {
    await world.addUserPackages(forty());
    const agent = await world.libraryAgent({ maxLoaded: 3, maxTools: 12, reservedToolNames: ['read_file', 'write_file'] });
    expect(agent.registry.names).toHaveLength(10);
    const unlisted = agent.library.packages.find((skillPackage) => skillPackage.state === 'unlisted');
    expect(unlisted).toBeDefined();
    const name = unlisted?.name as string;
    expect(agent.registry.names).not.toContain(name);
    expect((await agent.call(name)).output).toContain(name);
    expect(agent.registry.names).toContain(name);
    expect(agent.registry.names).toHaveLength(10);
  });

  it('turns a ghost whose package does not load into a diagnostic, and its tool leaves', async () => {
    await world.addUserPackages({
      good: commandPackage('good', 'Good.'),
      hidden: skillPackage('name: hidden\ndescription: Looks fine.\ncommand: "echo {x}"\nparameters:\n  x: { type: colour }'),
    });
    const agent = await world.libraryAgent({ maxLoaded: 1 });
    expect(descriptions(agent.registry).hidden).toMatch(/^\[GHOST\]/);
    expect((await agent.call('hidden', { x: 1 })).kind).toBe('not_found');
    expect(agent.registry.names).not.toContain('hidden');
    expect(agent.library.diagnostics.map(formatDiagnostic).join('\n')).toMatch(/hidden\/SKILL\.md:\d+:\d+: error: `parameters\.x\.type`/);
    expect(existsSync(join(world.userRoot, 'hidden'))).toBe(true);
  });
});

describe('skill_search', () => {
  it('ranks the expected package first for names, keywords, intents, prefixes and typos', async () => {
    const searchable = (name: string, description: string, extra = '') =>
      skillPackage(`name: ${name}\ndescription: ${description}\n${extra}`);
    await world.addUserPackages({
      'pdf-tools': searchable('pdf-tools', 'Merge, split and compress PDF documents.', 'routing_keywords: [pdf, merge, split]'),
      'markdown-converter': searchable('markdown-converter', 'Convert Markdown files to HTML.', 'routing_keywords: [markdown, html]'),
      'k8s-deployer': searchable('k8s-deployer', 'Roll out services.', 'intents:\n  - deploy to kubernetes\n  - roll back a release'),
      'git-helper': searchable('git-helper', 'Summarise repository history.', 'routing_keywords: [git, commits]'),
      'image-resizer': searchable('image-resizer', 'Resize and crop images.', 'routing_keywords: [png, jpeg, thumbnail]'),
    });
    const agent = await world.libraryAgent();
    const first = async (query: string) => (await agent.library.search(query, 3))[0]?.skill;
    expect(await first('merge pdf')).toBe('pdf-tools');
    expect(await first('markdwn convertr')).toBe('markdown-converter');
    expect(await first('kubernetes deploy')).toBe('k8s-deployer');
    expect(await first('gi')).toBe('git-helper');
    expect(await first('thumbnail')).toBe('image-resizer');
    expect(await agent.library.search('zzzzqqq')).toEqual([]);

    const result = await agent.call('skill_search', { query: 'pdf', limit: 2 });
    expect(result.success).toBe(true);
    const { results } = result.data as { results: { skill: string; tools: string[]; loaded: boolean; score: number }[] };
    expect(results[0]).toMatchObject({ skill: 'pdf-tools', tools: [], loaded: false });
    expect(results.length).toBeLessThanOrEqual(2);
    expect(JSON.parse(result.output).results[0].skill).toBe('pdf-tools');
  });
});
