import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bubblewrapSkipReason } from '@nexus/process/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from './skill-diagnostic.js';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';
import { recordTrust } from './trust-records.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

const COMMANDS = `
import { writeFileSync } from 'node:fs';
writeFileSync('loaded-' + process.pid, '');
export const status = {
  name: 'status',
  description: 'Shows the status of the working directory.',
  category: 'read',
  async run() {
    console.log('a log line from the command');
    return { cwd: process.cwd(), pid: process.pid };
  },
};
export const greet = {
  name: 'greet',
  description: 'Greets someone.',
  parameters: { who: { type: 'string', required: true }, times: { type: 'integer', default: 1 } },
  run: ({ who, times }) => Array(times).fill('hello ' + who).join('\\n'),
};
export const explode = { name: 'explode', description: 'Throws.', run() { throw new Error('kaboom'); } };
export const helper = 42;
`;

describe('script commands (scripts/commands.mjs)', () => {
  it('lists the exports as <skill>__<command> tools and runs them in a child Node process with JSON arguments', async () => {
    await world.addUserPackages({
      tools: skillPackage('name: tools\ndescription: Script tools.', { scripts: { 'commands.mjs': COMMANDS } }),
    });
    const agent = await world.agent();
    expect(agent.registry.names).toEqual(['skill', 'tools__explode', 'tools__greet', 'tools__status']);
    expect(agent.registry.getSpec('tools__status')).toMatchObject({ readOnly: true, minimumLevel: 'trusted' });

    const status = await agent.call('tools__status');
    expect(status.success, status.error).toBe(true);
    const data = status.data as { data: { result: { cwd: string; pid: number }; output: string } };
    expect(data.data.result.cwd).toBe(world.cwd);
    expect(data.data.result.pid).not.toBe(process.pid);
    expect(data.data.output).toContain('a log line from the command');

    const greet = await agent.call('tools__greet', { who: 'Ada', times: 2 });
    expect(greet.output.split('\n')[0]).toBe('✅ skills tools: greet → hello Ada');
    expect(greet.data).toMatchObject({ data: { result: 'hello Ada\nhello Ada' } });

    const pending = await agent.call('tools__greet', {});
    expect(pending.data).toMatchObject({ state: 'pending', data: { required: ['who'], optional: ['times'] } });

    const exploded = await agent.call('tools__explode');
    expect(exploded.data).toMatchObject({ state: 'error', error_type: 'RuntimeFailed' });
    expect(exploded.error).toContain('kaboom');
  });

  it('never runs an untrusted project package’s module, not even to list it', async () => {
    await world.addProjectPackages({
      tools: skillPackage('name: tools\ndescription: Script tools.', { scripts: { 'commands.mjs': COMMANDS } }),
    });
    const loaded = await world.load();
    expect(loaded.packages[0]).toMatchObject({ trusted: false, scriptCommands: 'not inspected', commands: [] });
    expect(readdirSync(world.cwd).filter((name) => name.startsWith('loaded-'))).toEqual([]);

    await recordTrust(world.stateDirectory, join(world.projectRoot, 'tools'), 'tools');
    const trusted = await world.load();
    expect(trusted.packages[0]?.commands.map((command) => command.tool)).toEqual(['tools__explode', 'tools__greet', 'tools__status']);
    expect(readdirSync(world.cwd).filter((name) => name.startsWith('loaded-'))).toHaveLength(1);
  });

  it('reports a module that does not load, and an export that is not a valid command', async () => {
    await world.addUserPackages({
      syntax: skillPackage('name: syntax\ndescription: Broken module.', { scripts: { 'commands.mjs': 'export const x = {;\n' } }),
      invalid: skillPackage('name: invalid\ndescription: Invalid command.', {
        scripts: { 'commands.mjs': "export const bad = { name: 'bad name', run() {} };\n" },
      }),
    });
    const loaded = await world.load();
    expect(loaded.packages).toEqual([]);
    const messages = loaded.diagnostics.map(formatDiagnostic);
    expect(messages).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${join(world.userRoot, 'syntax', 'scripts', 'commands.mjs')}:1:\\d+: error: the module cannot be loaded: .*SyntaxError`,
        ),
      ),
    );
    expect(messages).toContainEqual(
      `${join(world.userRoot, 'invalid', 'scripts', 'commands.mjs')}:1:1: error: the export \`bad\` is not a valid command: \`name\`: command names are letters, digits, \`_\` and \`-\`; \`description\`: Invalid input: expected string, received undefined`,
    );
  });

  it('leaves script commands out where listing is turned off (the sandboxed level)', async () => {
    await world.addUserPackages({
      tools: skillPackage('name: tools\ndescription: Script tools.', { scripts: { 'commands.mjs': COMMANDS } }),
    });
    const loaded = await world.load({ listScriptCommands: false });
    expect(loaded.packages[0]).toMatchObject({ scriptCommands: 'not inspected', commands: [] });
  });
});

const noBubblewrap = await bubblewrapSkipReason();

describe.skipIf(noBubblewrap !== '')(`listing script commands inside bubblewrap${noBubblewrap}`, () => {
  it('lists a trusted package in the sandbox its commands run in: its top-level code writes nothing and sees no host process', async () => {
    const written = join(world.cwd, 'written-at-import');
    const hostInit = readFileSync('/proc/1/cmdline', 'utf8');
    // The command's name says what the module's top-level code could do.
    const probe = `import { readFileSync, writeFileSync } from 'node:fs';
let wrote = 'wrote';
try { writeFileSync(${JSON.stringify(written)}, ''); } catch { wrote = 'nowrite'; }
const init = readFileSync('/proc/1/cmdline', 'utf8') === ${JSON.stringify(hostInit)} ? 'hostproc' : 'ownproc';
export const probe = { name: wrote + '_' + init, description: 'Probes.', run: () => 'ok' };
`;
    await world.addUserPackages({ probe: skillPackage('name: probe\ndescription: Probes.', { scripts: { 'commands.mjs': probe } }) });
    const tools = async (exec: { sandbox: 'bubblewrap' | 'none' }) =>
      (await world.load({ exec })).packages[0]?.commands.map((command) => command.tool);

    const library = await world.library({ exec: { sandbox: 'bubblewrap' }, watch: false });
    await library.refresh();
    expect(library.packages[0]?.tools).toEqual(['probe__nowrite_ownproc']);
    expect(await tools({ sandbox: 'bubblewrap' })).toEqual(['probe__nowrite_ownproc']);
    expect(existsSync(written)).toBe(false);

    expect(await tools({ sandbox: 'none' })).toEqual(['probe__wrote_hostproc']);
    expect(existsSync(written)).toBe(true);
  });
});
