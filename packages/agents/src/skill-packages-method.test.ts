import { afterEach, describe, expect, it } from 'vitest';
import { createServerFixture, type ServerFixture } from '../test/server-fixture.js';

let fixture: ServerFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const REPORT = {
  packages: [
    {
      name: 'lint',
      description: 'Lints.',
      folder: '/w/.nexus/skills/lint',
      scope: 'project',
      trust: 'untrusted',
      state: 'unlisted',
      tools: ['lint'],
      pinned: false,
    },
  ],
  diagnostics: [
    { severity: 'error', file: '/w/.nexus/skills/broken/SKILL.md', line: 3, column: 14, message: 'the frontmatter is not valid YAML' },
  ],
};

describe('list_skill_packages (docs/console.md)', () => {
  it("answers the server's skill-package index, read afresh for each call", async () => {
    let calls = 0;
    fixture = await createServerFixture({
      serve: {
        skillPackages: async () => {
          calls++;
          return REPORT;
        },
      },
    });
    expect(await fixture.result('/', 'list_skill_packages', {})).toEqual({ enabled: true, ...REPORT });
    expect(await fixture.result('/rpc', 'list_skill_packages')).toEqual({ enabled: true, ...REPORT });
    expect(calls).toBe(2);
  });

  it('says when the server serves no skill packages; takes no params and is a global method', async () => {
    fixture = await createServerFixture();
    const { rpc, result } = fixture;
    expect(await result('/', 'list_skill_packages', {})).toEqual({ enabled: false, packages: [], diagnostics: [] });
    expect((await rpc('/', 'list_skill_packages', { name: 'x' })).body.error?.code).toBe(-32602);
    expect((await rpc('/agent/a', 'list_skill_packages', {})).body.error?.code).toBe(-32601);
  });
});
