import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

const PACKAGE = skillPackage(
  'name: count\ndescription: Counts.\ncommand: "sh scripts/count.sh {n}"\nparameters:\n  n: { type: integer, required: true, allow_dash: true }',
  {
    scripts: { 'count.sh': 'if [ "$1" -lt 0 ]; then echo "negative: $1" >&2; exit 2; fi\nseq "$1"\n' },
    templates: {
      'command_result.j2':
        '{{ skill }}/{{ command }} {{ state }}: {% for line in stdout.strip().split("\\n") %}[{{ line }}]{% endfor %} in {{ meta.agent }}',
      'error_message.j2': '{{ skill }} failed with {{ exit_code }}: {{ stderr | trim }} ({{ data.exit_code }})',
    },
  },
);

describe('cascading result templates', () => {
  it('renders a success through command_result.j2 and a failure through error_message.j2, keeping data', async () => {
    await world.addUserPackages({ count: PACKAGE });
    const agent = await world.agent();
    const success = await agent.call('count', { n: 3 });
    expect(success.output).toBe('count/run success: [1][2][3] in skills');
    expect(success.data).toMatchObject({ state: 'success', data: { stdout: '1\n2\n3\n' } });
    const failure = await agent.call('count', { n: -1 });
    expect(failure.error).toBe('count failed with 2: negative: -1 (2)');
    expect(failure.data).toMatchObject({ state: 'error', error_type: 'RuntimeFailed' });
  });

  it('prefers the user’s override folder, then the package’s templates', async () => {
    await world.addUserPackages({ count: PACKAGE });
    await writeTree(join(world.configDirectory, 'templates', 'count'), {
      'command_result.j2': 'mine: {{ data.stdout | length }} characters',
    });
    const agent = await world.agent();
    expect((await agent.call('count', { n: 2 })).output).toBe('mine: 4 characters');
    expect((await agent.call('count', { n: -2 })).error).toBe('count failed with 2: negative: -2 (2)');
  });

  it('ignores a template that links out of its folder, and reports one that fails to render beside the default text', async () => {
    await writeTree(world.dir.path, { 'secret.txt': 'top secret {{ skill }}' });
    await world.addUserPackages({
      linked: skillPackage('name: linked\ndescription: Linked.\ncommand: "true"', {
        templates: { 'command_result.j2': { symlink: join(world.dir.path, 'secret.txt') } },
      }),
      faulty: skillPackage('name: faulty\ndescription: Faulty.\ncommand: "true"', { templates: { 'command_result.j2': '{% for %}' } }),
    });
    await symlink(join(world.dir.path, 'secret.txt'), join(world.userRoot, 'faulty', 'templates', 'error_message.j2'));
    const agent = await world.agent();
    const linked = await agent.call('linked');
    expect(linked.output).toMatch(/^✅ skills linked: run → done\n {2}state: success/);
    expect(linked.output).not.toContain('top secret');
    const faulty = await agent.call('faulty');
    expect(faulty.output).toMatch(
      /^✅ skills faulty: run → done\n {2}state: success .*\n {2}\(.*command_result\.j2 could not be rendered: /,
    );
  });

  it('gives templates no way into JavaScript objects', async () => {
    await world.addUserPackages({
      probe: skillPackage('name: probe\ndescription: Probe.\ncommand: "true"', {
        templates: { 'command_result.j2': '[{{ "".constructor }}][{{ data.constructor }}][{{ meta.__proto__ }}]' },
      }),
    });
    const output = (await (await world.agent()).call('probe')).output;
    expect(output).not.toMatch(/function|Object|native code/);
  });
});
