import { defineSkill, resolvePreset, ServiceContainer, ToolResult } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { type BeforeCallHook, type CallInfo, SkillRegistry, type SkillRegistryOptions } from './index.js';

const runs: Record<string, unknown>[] = [];
const probe = defineSkill<{ path?: string; count?: number }>({
  name: 'probe',
  description: 'Echoes its arguments.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  },
  create: () => (args) => {
    runs.push(args);
    return ToolResult.ok(`token=sk-secret-123 ${JSON.stringify(args)}`);
  },
});

function registryWith(options: SkillRegistryOptions, permissions: Parameters<typeof resolvePreset>[1] = { cwd: '/work' }) {
  const services = new ServiceContainer().register('permissions', resolvePreset('trusted', permissions));
  return new SkillRegistry(services, options).register(probe);
}

describe('beforeCall hooks', () => {
  it('see the call and may deny it with a reason; the skill does not run', async () => {
    const seen: CallInfo[] = [];
    const registry = registryWith({
      beforeCall: (call) => {
        seen.push(call);
        return { decision: 'deny', reason: 'frozen until Monday' };
      },
    });
    runs.length = 0;
    const result = await registry.execute('probe', { path: 'a' }, { caller: { agentId: 'a1', ancestry: ['root'] } });
    expect(result).toMatchObject({ kind: 'forbidden' });
    expect(result.error).toBe('probe was denied by a beforeCall hook: frozen until Monday.');
    expect(runs).toEqual([]);
    expect(seen).toEqual([
      { tool: 'probe', arguments: { path: 'a' }, cwd: '/work', level: 'trusted', caller: { agentId: 'a1', ancestry: ['root'] } },
    ]);
  });

  it('may rewrite the arguments, which are validated again and then meet the rules', async () => {
    const rewrite =
      (replacement: Record<string, unknown>): BeforeCallHook =>
      () => ({ decision: 'allow', arguments: replacement });
    runs.length = 0;
    expect((await registryWith({ beforeCall: rewrite({ path: 'b', count: '2' }) }).execute('probe', { path: 'a' })).success).toBe(true);
    expect(runs).toEqual([{ path: 'b', count: 2 }]);
    const invalid = await registryWith({ beforeCall: rewrite({ count: 0 }) }).execute('probe', { path: 'a' });
    expect(invalid).toMatchObject({ kind: 'invalid_input' });
    expect(invalid.error).toMatch(/beforeCall hook.*`count` must be >= 1/);
    const ruled = registryWith(
      { beforeCall: rewrite({ path: 'secret/key' }) },
      { cwd: '/work', rules: [{ tool: 'probe', match: { path: 'secret/**' }, decision: 'deny' }] },
    );
    expect((await ruled.execute('probe', { path: 'a' })).error).toBe('probe was denied by rule 1.');
  });

  it('deny the call when they throw, and say so', async () => {
    const registry = registryWith({
      beforeCall: [
        () => undefined,
        () => {
          throw new Error('policy server down');
        },
      ],
    });
    const result = await registry.execute('probe', {});
    expect(result).toMatchObject({ kind: 'forbidden' });
    expect(result.error).toBe('probe was denied: a beforeCall hook failed (policy server down).');
  });

  it('cannot widen the policy: an allow still asks where confirmation is required', async () => {
    const registry = registryWith(
      { beforeCall: () => ({ decision: 'allow' }) },
      { cwd: '/work', tools: { probe: { requiresConfirmation: true } } },
    );
    expect((await registry.execute('probe', {})).kind).toBe('forbidden');
  });
});

describe('afterCall hooks', () => {
  it('see the result and may replace it, e.g. to redact a secret', async () => {
    const registry = registryWith({
      afterCall: (_call, result) => ToolResult.ok(result.output.replace(/sk-[\w-]+/g, '[redacted]')),
    });
    expect((await registry.execute('probe', { path: 'a' })).output).toBe('token=[redacted] {"path":"a"}');
  });
});

describe('hooks as the callHooks service', () => {
  it('run for every registry built on the services, after the registry’s own', async () => {
    const order: string[] = [];
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('trusted', { cwd: '/work' }))
      .register('callHooks', { beforeCall: () => void order.push('service') });
    const registry = new SkillRegistry(services, { beforeCall: () => void order.push('registry') }).register(probe);
    expect((await registry.execute('probe', {})).success).toBe(true);
    expect(order).toEqual(['registry', 'service']);
  });

  it('withhold the result when an afterCall hook fails', async () => {
    const registry = registryWith({
      afterCall: () => {
        throw new Error('redactor crashed');
      },
    });
    const result = await registry.execute('probe', { path: 'a' });
    expect(result).toMatchObject({ success: false, kind: 'execution_failed' });
    expect(result.error).toBe('The result of probe is withheld: an afterCall hook failed (redactor crashed).');
    expect(JSON.stringify(result)).not.toContain('sk-secret');
  });
});
