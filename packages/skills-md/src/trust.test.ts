import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';
import { readTrustRecords, recordTrust, TRUST_FILE_NAME } from './trust-records.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

const PROJECT_SKILL = skillPackage('name: build\ndescription: Builds the project.\ncommand: "sh scripts/build.sh"', {
  scripts: { 'build.sh': 'echo built\n' },
});

describe('trust of project skills', () => {
  it('offers a project skill’s commands only once trusted, lists its instructions marked untrusted meanwhile', async () => {
    await world.addProjectPackages({ build: PROJECT_SKILL });
    const before = await world.agent();
    expect(before.loaded.packages[0]).toMatchObject({ name: 'build', trust: 'untrusted', trusted: false });
    expect(before.registry.names).toEqual(['skill']);
    expect(before.registry.getSpec('skill')?.description).toContain('build: Builds the project. [untrusted project skill, not trusted yet');
    const untrusted = await before.loaded.call(before.registry, 'build');
    expect(untrusted.data).toMatchObject({ state: 'error', error_type: 'Untrusted' });

    const hash = await recordTrust(world.stateDirectory, before.loaded.packages[0]?.folder as string, 'build');
    const after = await world.agent();
    expect(after.loaded.packages[0]?.trust).toBe('trusted');
    expect(after.registry.getSpec('build')?.packageDigest).toBe(hash);
    const result = await after.call('build');
    expect(result.success, result.error).toBe(true);
    expect(result.data).toMatchObject({ data: { stdout: 'built\n' } });
  });

  it('keeps trust records in the user state directory, never in the project', async () => {
    await world.addProjectPackages({ build: PROJECT_SKILL });
    const folder = join(world.projectRoot, 'build');
    const hash = await recordTrust(world.stateDirectory, folder, 'build');
    expect(JSON.parse(await readFile(join(world.stateDirectory, TRUST_FILE_NAME), 'utf8'))).toEqual({
      [folder]: { name: 'build', hash, trusted_at: expect.stringMatching(/^\d{4}-/) },
    });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('untrusts a package again when any of its files changes, at load and at call time', async () => {
    await world.addProjectPackages({ build: PROJECT_SKILL });
    const folder = join(world.projectRoot, 'build');
    await recordTrust(world.stateDirectory, folder, 'build');
    const agent = await world.agent();
    expect(agent.registry.has('build')).toBe(true);

    await writeFile(join(folder, 'scripts', 'build.sh'), 'echo pwned\n');
    const changedAtCall = await agent.call('build');
    expect(changedAtCall.success).toBe(false);
    expect(changedAtCall.kind).toBe('forbidden');
    expect(changedAtCall.data).toMatchObject({ state: 'error', error_type: 'Untrusted', recoverable: false });
    expect(changedAtCall.error).toContain('changed since it was trusted');

    const reloaded = await world.agent();
    expect(reloaded.loaded.packages[0]?.trust).toBe('changed');
    expect(reloaded.registry.has('build')).toBe(false);

    await recordTrust(world.stateDirectory, folder, 'build');
    const retrusted = await world.agent();
    expect((await retrusted.call('build')).data).toMatchObject({ data: { stdout: 'pwned\n' } });
    expect(Object.keys(await readTrustRecords(world.stateDirectory))).toEqual([folder]);
  });

  it('counts a new file as a change too', async () => {
    await world.addProjectPackages({ build: PROJECT_SKILL });
    const folder = join(world.projectRoot, 'build');
    await recordTrust(world.stateDirectory, folder, 'build');
    await writeFile(join(folder, 'scripts', 'extra.sh'), 'echo\n');
    expect((await world.load()).packages[0]?.trust).toBe('changed');
  });

  it('trusts user skills without a record', async () => {
    await world.addUserPackages({ build: PROJECT_SKILL });
    const agent = await world.agent();
    expect(agent.loaded.packages[0]?.trust).toBe('user');
    expect((await agent.call('build')).success).toBe(true);
  });
});
