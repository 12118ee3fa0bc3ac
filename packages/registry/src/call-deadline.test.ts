import { setTimeout as delay } from 'node:timers/promises';
import { defineSkill, type SkillProgress, ToolResult } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { SkillRegistry } from './index.js';

/** A skill that works in `steps` steps of 40 ms, each reporting progress and, when `extendBy` is set, extending its deadline. */
const stepsSkill = defineSkill<{ steps: number; extendBy?: number }>({
  name: 'steps',
  description: 'Works in steps.',
  parameters: {
    type: 'object',
    properties: { steps: { type: 'integer' }, extendBy: { type: 'integer' } },
    required: ['steps'],
  },
  create:
    () =>
    async ({ steps, extendBy }, { signal, onProgress, extendDeadline }) => {
      for (let step = 1; step <= steps && !signal?.aborted; step++) {
        if (extendBy !== undefined) extendDeadline?.(extendBy);
        onProgress?.({ current: step, total: steps });
        await delay(40);
      }
      return ToolResult.ok(`${steps} steps`);
    },
});

/** Extends its deadline by `extendBy` ms once, then waits until it is stopped. */
const waitSkill = defineSkill<{ extendBy: number }>({
  name: 'wait',
  description: 'Extends its deadline once and waits to be stopped.',
  parameters: { type: 'object', properties: { extendBy: { type: 'integer' } }, required: ['extendBy'] },
  create:
    () =>
    ({ extendBy }, { signal, extendDeadline }) => {
      extendDeadline?.(extendBy);
      return new Promise<ToolResult>((resolve) => signal?.addEventListener('abort', () => resolve(ToolResult.ok('stopped'))));
    },
});

function registry(options: ConstructorParameters<typeof SkillRegistry>[1] = {}) {
  return new SkillRegistry(undefined, options).register(stepsSkill).register(waitSkill);
}

describe('a deadline the skill’s progress extends', () => {
  it('lets a skill that shows progress run past timeoutMs, and stops the same work without it', async () => {
    const progress: SkillProgress[] = [];
    const extended = await registry().execute(
      'steps',
      { steps: 8, extendBy: 5000 },
      { timeoutMs: 100, onProgress: (report) => progress.push(report) },
    );
    expect(extended).toMatchObject({ success: true, output: '8 steps' });
    expect(progress.map((report) => report.current)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const silent = await registry().execute('steps', { steps: 8 }, { timeoutMs: 100 });
    expect(silent).toMatchObject({ kind: 'timeout', error: 'steps did not finish within 0.1 s and was stopped.' });
  });

  it('never extends past maxTotalMs, per call or per registry', async () => {
    const perCall = await registry().execute('steps', { steps: 1000, extendBy: 10_000 }, { timeoutMs: 50, maxTotalMs: 300 });
    expect(perCall).toMatchObject({
      kind: 'timeout',
      error: 'steps did not finish within 0.3 s (its time limit of 0.05 s, the most its progress may extend it to) and was stopped.',
    });
    const perRegistry = await registry({ timeoutMs: 50, maxTotalMs: 200 }).execute('steps', { steps: 1000, extendBy: 10_000 });
    expect(perRegistry.error).toMatch(/^steps did not finish within 0.2 s \(its time limit of 0.05 s, the most/);
  });

  it('says how far the limit was extended', async () => {
    const result = await registry().execute('wait', { extendBy: 150 }, { timeoutMs: 50 });
    expect(result.kind).toBe('timeout');
    expect(result.error).toMatch(
      /^wait did not finish within 0\.1\d\d? s \(its time limit of 0\.05 s, extended while it showed progress\)/,
    );
  });

  it('never shortens the limit', async () => {
    const result = await registry().execute('steps', { steps: 3, extendBy: 1 }, { timeoutMs: 5000 });
    expect(result).toMatchObject({ success: true, output: '3 steps' });
  });

  it('refuses a maxTotalMs that is not a positive number', async () => {
    expect(() => registry({ maxTotalMs: 0 })).toThrow(/Expected `maxTotalMs` to be a positive number of milliseconds, got 0/);
    expect((await registry().execute('wait', { extendBy: 1 }, { maxTotalMs: -1 })).error).toMatch(/Expected `maxTotalMs`/);
  });
});
