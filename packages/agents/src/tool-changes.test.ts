import { defineSkill, type SkillFamily, ToolResult } from '@nexus/core';
import type { SkillRegistry } from '@nexus/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, sent } from '../test/agent-fixture.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Names of the tools a model request offered, in either dialect. */
function offered(fixture: Fixture, index: number): string[] {
  const tools = (sent(fixture.llm, index).body.tools ?? []) as Array<{ name?: string; function?: { name: string } }>;
  return tools.map((tool) => tool.function?.name ?? tool.name ?? '').sort();
}

const fresh = defineSkill({
  name: 'fresh',
  description: 'Arrived during the turn.',
  parameters: { type: 'object', properties: {} },
  create: () => () => ToolResult.ok('fresh ran'),
});

/** A family whose `install` tool changes the registry it runs in, as a skill package edited on disk does. */
function installingFamily(registry: () => SkillRegistry): SkillFamily {
  const install = defineSkill({
    name: 'install',
    description: 'Adds the tool fresh and removes itself.',
    parameters: { type: 'object', properties: {} },
    create: () => () => {
      registry().replace(fresh);
      registry().unregister('install');
      return ToolResult.ok('installed');
    },
  });
  return { name: 'installing', skills: [install] };
}

describe.each(['openai-compatible', 'anthropic'] as const)('tool changes during a turn over %s', (type) => {
  it('offers the new tool list at the next step, and the model can call the new tool', async () => {
    let registry!: SkillRegistry;
    fixture = await createFixture({ type, families: [installingFamily(() => registry)] });
    registry = fixture.agent.registry;
    fixture.llm.script(
      { toolCalls: [{ name: 'install', arguments: {} }] },
      { toolCalls: [{ name: 'fresh', arguments: {} }] },
      { text: 'Done.' },
    );

    const result = await fixture.agent.send('Install and use it.');

    expect(result.content).toBe('Done.');
    expect(offered(fixture, 0)).toEqual(['install']);
    expect(offered(fixture, 1)).toEqual(['fresh']);
    expect(result.toolCalls.map(({ name, success }) => ({ name, success }))).toEqual([
      { name: 'install', success: true },
      { name: 'fresh', success: true },
    ]);
  });
});
