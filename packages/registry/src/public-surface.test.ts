import { readFileSync } from 'node:fs';
import { testdir } from '@nexus/test-utils';
import { describe, expect, it } from 'vitest';
import * as registry from './index.js';
import * as testing from './testing.js';

describe('the @nexus/registry surface', () => {
  it('exports the registry, its utility family and nothing internal', () => {
    expect(Object.keys(registry).sort()).toEqual([
      'DEFAULT_EXECUTION_TIMEOUT_MS',
      'MAX_AUDITED_STRING',
      'MAX_SLEEP_SECONDS',
      'SUPPORTED_KEYWORDS',
      'SkillRegistry',
      'checkToolRules',
      'echoSkill',
      'sleepSkill',
      'utilitySkills',
    ]);
  });

  it('exports the test agent and the changing test family from ./testing, and the manifest maps both entry points', () => {
    expect(Object.keys(testing).sort()).toEqual(['createChangingTestFamily', 'createTestAgent', 'outputSchemaProblems']);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(Object.keys(manifest.exports)).toEqual(['.', './testing', './package.json']);
  });

  it('createTestAgent wires a policy, families and a recording confirm service', async () => {
    await using dir = await testdir({ 'a.txt': 'x' });
    const agent = testing.createTestAgent({
      cwd: dir.path,
      preset: 'trusted',
      families: [registry.utilitySkills],
      tools: { echo: { enabled: true, requiresConfirmation: true } },
      confirm: false,
    });
    expect(agent.services.getPermissionLevel()).toBe('trusted');
    expect(await agent.call('echo', { message: 'hi' })).toMatchObject({ kind: 'forbidden' });
    expect(agent.confirmations).toEqual([{ tool: 'echo', action: 'run echo', detail: '{"message":"hi"}' }]);
    expect(await agent.call('echo', { message: 'hi' }, { confirm: () => true })).toMatchObject({ success: true, output: 'hi' });
    expect(agent.confirmations).toHaveLength(1);
  });
});
