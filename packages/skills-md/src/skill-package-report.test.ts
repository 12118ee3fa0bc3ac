import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeSkillPackages, recordTrust } from './index.js';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

const commandPackage = (name: string) => skillPackage(`name: ${name}\ndescription: The ${name} skill.\ncommand: "echo ${name}"`);

describe('describeSkillPackages', () => {
  it('tells each package in effect with its trust and how it is offered, and every diagnostic at file:line:col', async () => {
    await world.addUserPackages({ alpha: commandPackage('alpha'), beta: commandPackage('beta') });
    await world.addProjectPackages({
      fresh: commandPackage('fresh'),
      edited: commandPackage('edited'),
      broken: { 'SKILL.md': '---\nname: broken\ndescription: "never closed\n---\n' },
    });
    await recordTrust(world.stateDirectory, join(world.projectRoot, 'edited'), 'edited');
    await writeFile(join(world.projectRoot, 'edited', 'README.md'), '# Changed since it was trusted\n');
    const library = await world.library({ maxLoaded: 1, pinned: ['alpha'] });

    const report = await describeSkillPackages(library, world.stateDirectory);

    const byName = Object.fromEntries(report.packages.map((entry) => [entry.name, entry]));
    expect(Object.keys(byName).sort()).toEqual(['alpha', 'beta', 'edited', 'fresh']);
    expect(byName.alpha).toMatchObject({ scope: 'user', trust: 'user', state: 'loaded', pinned: true, tools: ['alpha'] });
    expect(byName.beta).toMatchObject({ scope: 'user', trust: 'user', state: 'ghost', pinned: false });
    expect(byName.fresh).toMatchObject({
      scope: 'project',
      trust: 'untrusted',
      state: 'unlisted',
      folder: join(world.projectRoot, 'fresh'),
    });
    expect(byName.edited).toMatchObject({ scope: 'project', trust: 'changed' });
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        file: join(world.projectRoot, 'broken', 'SKILL.md'),
        line: expect.any(Number),
        column: expect.any(Number),
      }),
    );
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});
