import { defineSkill, policyDigest, resolvePreset, ServiceContainer, ToolResult } from '@nexus/core';
import { spanRecorder } from '@nexus/test-utils/spans';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkillRegistry } from './index.js';

const recorder = spanRecorder();
const { exporter } = recorder;
beforeAll(recorder.start);
afterAll(recorder.stop);

const probe = defineSkill<{ command?: string }>({
  name: 'probe',
  description: 'Echoes its arguments.',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
  create: () => (args) => ToolResult.ok(JSON.stringify(args)),
});

describe('the span of a call', () => {
  it('follows the GenAI conventions, sits under the caller’s span, and says what decided the call', async () => {
    const services = new ServiceContainer().register(
      'permissions',
      resolvePreset('trusted', { cwd: '/work', rules: [{ tool: 'probe', match: { command: 'rm *' }, decision: 'deny' }] }),
    );
    const registry = new SkillRegistry(services).register({ ...probe, packageDigest: 'pkg123' } as typeof probe);
    const parent = trace.getTracer('test').startSpan('invoke_agent');
    await context.with(trace.setSpan(context.active(), parent), async () => {
      await registry.execute('probe', { command: 'ls sk-proj-abcdefghijklmnopqrstuv' }, { toolCallId: 'call_1' });
      await registry.execute('probe', { command: 'rm -rf x' }, { toolCallId: 'call_2' });
    });
    parent.end();
    await recorder.flush();
    const spans = exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool probe');
    expect(spans).toHaveLength(2);
    const [allowed, denied] = spans as [(typeof spans)[number], (typeof spans)[number]];
    for (const span of spans) expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(allowed.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'probe',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call_1',
      'nexus.decision': 'allow',
      'nexus.decided_by': 'preset',
      'nexus.policy_digest': policyDigest(services),
      'nexus.package_digest': 'pkg123',
    });
    expect(allowed.status.code).toBe(SpanStatusCode.UNSET);
    expect(denied.attributes).toMatchObject({ 'nexus.decision': 'deny', 'nexus.decided_by': 'rule 1', 'error.type': 'forbidden' });
    expect(denied.status).toEqual({ code: SpanStatusCode.ERROR, message: 'probe was denied by rule 1.' });
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('sk-proj');
    registry.register(
      defineSkill({
        name: 'run',
        description: 'Runs.',
        parameters: { type: 'object' },
        create: () => () => ToolResult.ok('', { sandboxed: true }),
      }),
    );
    await registry.execute('run', {});
    await recorder.flush();
    expect(exporter.getFinishedSpans().find((span) => span.name === 'execute_tool run')?.attributes['nexus.isolation']).toBe('bubblewrap');
  });
});
