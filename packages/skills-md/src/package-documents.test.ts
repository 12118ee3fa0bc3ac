import { ServiceContainer } from '@nexus/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SkillWorld, skillMd, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
  await world.addUserPackages({
    guide: skillPackage('name: guide\ndescription: Writes guides.\nallowed-tools: Read', {
      references: { 'style.md': '# Style\n' },
      assets: { 'logo.svg': '<svg/>' },
      scripts: { 'run.sh': 'echo run\n' },
    }),
    deploy: skillPackage('name: deploy\ndescription: Deploys.\ndisable-model-invocation: true', { references: { 'a.md': 'a' } }),
  });
  await world.addProjectPackages({ local: skillPackage('name: local\ndescription: Untrusted.', { references: { 'b.md': 'b' } }) });
});
afterEach(() => world.dir.cleanup());

describe("a library family's documents", () => {
  it('offer the trusted packages the model may use: instructions and references/assets files, read without side effects', async () => {
    const { documents } = (await world.library()).family;
    expect(await documents.listInstructions()).toEqual([{ name: 'guide', description: 'Writes guides.' }]);
    expect(await documents.readInstructions('guide')).toBe('# Instructions\n\nUse it well.');
    await expect(documents.readInstructions('deploy')).rejects.toThrow(/No skill package named "deploy"/);
    expect(await documents.listFiles()).toEqual([
      { uri: 'skill://guide/assets/logo.svg', name: 'assets/logo.svg', mimeType: 'image/svg+xml', size: 6 },
      { uri: 'skill://guide/references/style.md', name: 'references/style.md', mimeType: 'text/markdown', size: 8 },
    ]);
    const services = new ServiceContainer();
    const read = await documents.readFile('skill://guide/references/style.md', services);
    expect([read.mimeType, Buffer.from(read.bytes).toString()]).toEqual(['text/markdown', '# Style\n']);
    await expect(documents.readFile('skill://local/references/b.md', services)).rejects.toThrow(/No skill package named "local"/);
    await expect(documents.readFile('skill://guide/scripts/run.sh', services)).rejects.toThrow(/not one of the package's/);
    // Unlike the `skill` tool: no read grant, no narrowing to allowed-tools.
    expect([services.get('readOnlyPaths'), services.get('toolScope')]).toEqual([undefined, undefined]);
  });

  it('are offered by loadSkillPackages’ family too', async () => {
    const { documents } = (await world.load()).family;
    expect(await documents?.listInstructions()).toEqual([{ name: 'guide', description: 'Writes guides.' }]);
  });

  it('tell their listeners when the packages changed', async () => {
    const library = await world.library({ watch: false, checkIntervalMs: 0 });
    let changes = 0;
    library.family.documents.onChange(() => changes++);
    await world.addUserPackages({ added: { 'SKILL.md': skillMd('name: added\ndescription: New.') } });
    await library.refresh();
    expect(changes).toBe(1);
    expect((await library.family.documents.listInstructions()).map((entry) => entry.name)).toEqual(['added', 'guide']);
  });
});
