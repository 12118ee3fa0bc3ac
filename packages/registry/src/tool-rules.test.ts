import { ConfigError, defineSkill, ToolResult, type ToolRule } from '@nexus/core';
import { testdir } from '@nexus/test-utils';
import { describe, expect, it } from 'vitest';
import { checkToolRules } from './index.js';
import { createTestAgent } from './testing.js';

/** Echoes its arguments; `path` names a file, `command` a command line. */
const probe = defineSkill<{ path?: string; command?: string }>({
  name: 'probe',
  description: 'Echoes its arguments.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', default: '.' },
      command: { type: 'string' },
      paths: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: false,
  },
  create: () => (args) => ToolResult.ok(JSON.stringify(args)),
});

function agentWith(cwd: string, rules: ToolRule[], options: Partial<Parameters<typeof createTestAgent>[0]> = {}) {
  return createTestAgent({ cwd, families: [{ name: 'probe', skills: [probe] }], rules, ...options });
}

describe('rules', () => {
  it('deny a matching command with their reason, and leave the others to the preset', async () => {
    await using dir = await testdir({});
    const agent = agentWith(dir.path, [{ tool: 'probe', match: { command: 'rm *' }, decision: 'deny', reason: 'no deletes' }]);
    const denied = await agent.call('probe', { command: 'rm -rf /tmp/x' });
    expect(denied).toMatchObject({ kind: 'forbidden' });
    expect(denied.error).toMatch(/^probe was denied by rule 1: no deletes\.$/);
    expect((await agent.call('probe', { command: 'ls -la' })).success).toBe(true);
    expect((await agent.call('probe', { command: '  rm   -rf x' })).kind).toBe('forbidden');
  });

  it('compare path arguments resolved against the working directory, so `../`, absolute paths and symlinks do not dodge them', async () => {
    await using dir = await testdir({ app: { src: {}, secret: { 'key.txt': 'k' }, link: { symlink: 'secret' } } });
    const agent = agentWith(dir.join('app'), [{ tool: 'probe', match: { path: 'secret/**' }, decision: 'deny' }]);
    for (const path of [
      'secret/key.txt',
      'src/../secret/key.txt',
      './secret//key.txt',
      dir.join('app', 'secret', 'key.txt'),
      'link/key.txt',
    ]) {
      expect((await agent.call('probe', { path })).kind, path).toBe('forbidden');
    }
    expect((await agent.call('probe', { paths: ['src/a', 'src/../secret/b'] })).success).toBe(true);
    expect((await agent.call('probe', { path: 'src/a.txt' })).success).toBe(true);
    const listed = agentWith(dir.join('app'), [{ tool: 'probe', match: { paths: 'secret/**' }, decision: 'deny' }]);
    expect((await listed.call('probe', { paths: ['src/a', 'src/../secret/b'] })).kind).toBe('forbidden');
  });

  it('apply the first match: an exception before a broader rule', async () => {
    await using dir = await testdir({});
    const agent = agentWith(dir.path, [
      { tool: 'probe', match: { command: 'git push origin *' }, decision: 'allow' },
      { tool: 'probe', match: { command: 'git push *' }, decision: 'deny' },
    ]);
    expect((await agent.call('probe', { command: 'git push origin main' })).success).toBe(true);
    expect((await agent.call('probe', { command: 'git push evil main' })).kind).toBe('forbidden');
  });

  it('ask the call’s own confirm, and refuse when it declines or nobody can be asked', async () => {
    await using dir = await testdir({});
    const rules: ToolRule[] = [{ tool: 'probe', match: { command: 'deploy *' }, decision: 'ask', reason: 'deploys are reviewed' }];
    const asked: string[] = [];
    const agent = agentWith(dir.path, rules, { confirm: false });
    const approved = await agent.call(
      'probe',
      { command: 'deploy prod' },
      {
        confirm: (request) => {
          asked.push(`${request.action}: ${request.detail}`);
          return true;
        },
      },
    );
    expect(approved.success).toBe(true);
    expect(asked).toEqual([expect.stringMatching(/run probe.*deploys are reviewed/)]);
    expect(agent.confirmations).toEqual([]);
    expect((await agent.call('probe', { command: 'deploy prod' })).kind).toBe('forbidden');
    expect(agent.confirmations).toHaveLength(1);
    expect((await agentWith(dir.path, rules).call('probe', { command: 'deploy prod' })).kind).toBe('forbidden');
  });

  it('deny without asking, even a confirmer that approves everything (a remembered approval)', async () => {
    await using dir = await testdir({});
    const agent = agentWith(dir.path, [{ tool: 'probe', decision: 'deny' }], {
      confirm: true,
      tools: { probe: { requiresConfirmation: true } },
    });
    expect((await agent.call('probe', {}, { confirm: () => true })).kind).toBe('forbidden');
    expect(agent.confirmations).toEqual([]);
  });

  it('never widen the preset: an allowed tool that is disabled or needs confirmation stays so', async () => {
    await using dir = await testdir({});
    const allow: ToolRule[] = [{ tool: 'probe', decision: 'allow' }];
    expect((await agentWith(dir.path, allow, { tools: { probe: { enabled: false } } }).call('probe')).kind).toBe('forbidden');
    const confirming = agentWith(dir.path, allow, { tools: { probe: { requiresConfirmation: true } }, confirm: false });
    expect((await confirming.call('probe')).kind).toBe('forbidden');
    expect(confirming.confirmations).toHaveLength(1);
  });

  it('are checked against the registry: an unknown tool or argument is a config error naming it', async () => {
    await using dir = await testdir({});
    const { registry } = agentWith(dir.path, []);
    expect(() => checkToolRules(registry, [{ tool: 'probe', match: { command: 'x', path: 'y' }, decision: 'deny' }])).not.toThrow();
    expect(() => checkToolRules(registry, [{ tool: 'prob', decision: 'deny' }])).toThrow(ConfigError);
    expect(() => checkToolRules(registry, [{ tool: 'prob', decision: 'deny' }])).toThrow(/`rules\[0\]\.tool`: no tool named "prob"/);
    expect(() =>
      checkToolRules(registry, [
        { tool: 'probe', decision: 'deny' },
        { tool: 'probe', match: { cmd: 'x' }, decision: 'deny' },
      ]),
    ).toThrow(/`rules\[1\]\.match\.cmd`: "probe" has no argument "cmd"/);
  });
});
