import { setImmediate as nextTurn } from 'node:timers/promises';
import { defineSkill, policyDigest, resolvePreset, ServiceContainer, ToolResult, type ToolRule } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { type AuditRecord, SkillRegistry, type SkillRegistryOptions } from './index.js';

const probe = defineSkill<Record<string, unknown>>({
  name: 'probe',
  description: 'Echoes its arguments.',
  parameters: { type: 'object', properties: { command: { type: 'string' }, api_key: { type: 'string' }, content: { type: 'string' } } },
  create: () => (args) => ToolResult.ok(JSON.stringify(args)),
});

function audited(options: SkillRegistryOptions = {}, rules: ToolRule[] = []) {
  const records: AuditRecord[] = [];
  const services = new ServiceContainer().register('permissions', resolvePreset('trusted', { cwd: '/work', rules }));
  const registry = new SkillRegistry(services, { ...options, onAudit: (record) => records.push(record) });
  registry.register({ ...probe, packageDigest: 'abc123' } as typeof probe);
  return { registry, records, services };
}

describe('the audit records of onAudit', () => {
  it('say who called what, under which policy, what was decided by what, and how it ended', async () => {
    const { registry, records, services } = audited();
    const before = Date.now();
    await registry.execute(
      'probe',
      { command: 'ls' },
      { caller: { tokenHolder: 'alice', agentId: 'a1', ancestry: ['root'] }, toolCallId: 'call_7' },
    );
    registry.deliverAuditRecords();
    const started = Date.parse(records[0]?.time ?? '');
    expect(started).toBeGreaterThanOrEqual(before);
    expect(started).toBeLessThanOrEqual(Date.now());
    expect(records).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        tool: 'probe',
        toolCallId: 'call_7',
        caller: { tokenHolder: 'alice', agentId: 'a1', ancestry: ['root'] },
        arguments: { command: 'ls' },
        decision: 'allow',
        decidedBy: 'preset',
        policyDigest: policyDigest(services),
        packageDigest: 'abc123',
        result: 'ok',
        durationMs: expect.any(Number),
      },
    ]);
  });

  it('name the rule, the hook or the step that refused, and who confirmed', async () => {
    const rules: ToolRule[] = [
      { tool: 'probe', match: { command: 'rm *' }, decision: 'deny', reason: 'no deletes' },
      { tool: 'probe', match: { command: 'deploy *' }, decision: 'ask' },
    ];
    const { registry, records } = audited(
      {
        beforeCall: [
          function freeze(call) {
            return call.arguments.command === 'freeze' ? { decision: 'deny' } : undefined;
          },
        ],
      },
      rules,
    );
    await registry.execute('probe', { command: 'rm -rf x' });
    await registry.execute('probe', { command: 'deploy prod' }, { confirm: () => true });
    await registry.execute('probe', { command: 'freeze' });
    await registry.execute('probe', { command: 42 });
    await registry.execute('nope', {});
    registry.deliverAuditRecords();
    expect(
      records.map(({ decision, decidedBy, reason, confirmation, result }) => ({ decision, decidedBy, reason, confirmation, result })),
    ).toEqual([
      { decision: 'deny', decidedBy: 'rule 1', reason: 'no deletes', confirmation: undefined, result: 'forbidden' },
      { decision: 'ask', decidedBy: 'rule 2', reason: undefined, confirmation: { given: true, by: 'caller' }, result: 'ok' },
      { decision: 'deny', decidedBy: 'beforeCall hook "freeze"', reason: undefined, confirmation: undefined, result: 'forbidden' },
      { decision: 'deny', decidedBy: 'validation', reason: undefined, confirmation: undefined, result: 'invalid_input' },
      { decision: 'deny', decidedBy: 'lookup', reason: undefined, confirmation: undefined, result: 'not_found' },
    ]);
  });

  it('say when the skill itself asked, and who answered', async () => {
    const asking = defineSkill<Record<string, unknown>>({
      name: 'asking',
      description: 'Asks before it acts.',
      parameters: { type: 'object', properties: {} },
      create: (services) => async (_args, context) =>
        (await services.confirm({ tool: 'asking', action: 'write /etc/hosts' }, context.confirm))
          ? ToolResult.ok('done')
          : ToolResult.fail('refused', 'forbidden'),
    });
    const { registry, records, services } = audited();
    registry.register(asking);
    await registry.execute('asking', {}, { confirm: () => false });
    services.register('confirm', () => true);
    await registry.execute('asking', {});
    registry.deliverAuditRecords();
    expect(records.map(({ decision, decidedBy, confirmation, result }) => ({ decision, decidedBy, confirmation, result }))).toEqual([
      { decision: 'ask', decidedBy: 'preset', confirmation: { given: false, by: 'caller' }, result: 'forbidden' },
      { decision: 'ask', decidedBy: 'preset', confirmation: { given: true, by: 'confirm service' }, result: 'ok' },
    ]);
  });

  it('say how the command of a call was isolated, where its result tells (data.sandboxed)', async () => {
    const { registry, records } = audited();
    for (const sandboxed of [true, false]) {
      registry.register({
        ...defineSkill({
          name: `run_${sandboxed}`,
          description: 'Runs.',
          parameters: { type: 'object' },
          create: () => () => ToolResult.ok('', { sandboxed }),
        }),
      });
      await registry.execute(`run_${sandboxed}`, {});
    }
    await registry.execute('probe', {});
    registry.deliverAuditRecords();
    expect(records.map((record) => record.isolation)).toEqual(['bubblewrap', 'none', undefined]);
  });

  it('hold no secret, no long value, and cannot be forged through an argument', async () => {
    const { registry, records } = audited();
    const forged = 'x"}\n{"decision":"allow","tool":"probe';
    await registry.execute('probe', {
      api_key: 'k-123',
      command: `curl -H "Authorization: Bearer abcdef123456" ${forged}`,
      content: 'y'.repeat(5000),
    });
    registry.deliverAuditRecords();
    const line = JSON.stringify(records[0]);
    expect(line).not.toContain('k-123');
    expect(line).not.toContain('abcdef123456');
    expect(line).not.toContain('y'.repeat(1025));
    expect(line.split('\n')).toHaveLength(1);
    expect(JSON.parse(line).arguments).toMatchObject({
      api_key: '[redacted]',
      content: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), length: 5000 },
    });
  });

  it("reach the sinks after the caller has the call's result: on the event loop's next turn, or at once with deliverAuditRecords", async () => {
    const { registry, records } = audited();
    await registry.execute('probe', { command: 'ls' });
    expect(records).toEqual([]);
    await nextTurn();
    expect(records.map((record) => record.arguments)).toEqual([{ command: 'ls' }]);

    const started = performance.now();
    await registry.execute('probe', { command: 'pwd' });
    const took = performance.now() - started;
    // Held up past the call's end: its duration is still the call's.
    while (performance.now() - started < took + 20);
    registry.deliverAuditRecords();
    expect(records.map((record) => record.arguments)).toEqual([{ command: 'ls' }, { command: 'pwd' }]);
    expect(records[1]?.durationMs).toBeLessThanOrEqual(took);
  });

  it('tell the arguments as the call ended with them: a change to them after the call does not reach its record', async () => {
    const { registry, records } = audited();
    const args: Record<string, unknown> = { command: 42 };
    expect((await registry.execute('probe', args)).kind).toBe('invalid_input');
    args.command = 'rm -rf /';
    await nextTurn();
    expect(records.map((record) => record.arguments)).toEqual([{ command: 42 }]);
  });

  it('do not change the call when the sink throws', async () => {
    const services = new ServiceContainer().register('permissions', resolvePreset('trusted', { cwd: '/work' }));
    const registry = new SkillRegistry(services, {
      onAudit: () => {
        throw new Error('disk full');
      },
    }).register(probe);
    expect((await registry.execute('probe', { command: 'ls' })).output).toBe('{"command":"ls"}');
  });
});
