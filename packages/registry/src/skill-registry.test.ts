import {
  defineSkill,
  type FamilyDocuments,
  resolvePreset,
  ServiceContainer,
  type Skill,
  SkillNotFoundError,
  ToolResult,
} from '@nexus/core';
import { testdir } from '@nexus/test-utils';
import { describe, expect, it } from 'vitest';
import { SkillRegistry, utilitySkills } from './index.js';

const mockSkill: Skill = {
  name: 'mock',
  description: 'Doubles a number.',
  parameters: { type: 'object', properties: { value: { type: 'integer', description: 'Number to double.' } }, required: ['value'] },
  async execute(args) {
    return ToolResult.ok(String((args.value as number) * 2));
  },
};

const otherSkill = defineSkill({
  name: 'other',
  description: 'Does nothing.',
  parameters: { type: 'object', properties: {} },
  create: () => () => ToolResult.ok('done'),
});

describe('SkillRegistry — seed 002 cases', () => {
  it('returns a registered skill by name', () => {
    const registry = new SkillRegistry().register(mockSkill);
    expect(registry.get('mock')).toBe(mockSkill);
  });

  it('returns undefined for an unknown name, and require throws SkillNotFoundError', () => {
    const registry = new SkillRegistry().register(mockSkill);
    expect(registry.get('nonexistent')).toBeUndefined();
    expect(() => registry.require('nonexistent')).toThrow(SkillNotFoundError);
  });

  it('lists two registered skills', () => {
    const registry = new SkillRegistry().register(mockSkill).register(otherSkill);
    expect(registry.list()).toHaveLength(2);
    expect(registry.names).toEqual(['mock', 'other']);
  });

  it('produces OpenAI tool definitions of the documented shape', () => {
    const registry = new SkillRegistry().register(mockSkill);
    expect(registry.getDefinitions()).toEqual([
      { type: 'function', function: { name: 'mock', description: mockSkill.description, parameters: mockSkill.parameters } },
    ]);
  });

  it('executes a skill with valid input', async () => {
    const result = await new SkillRegistry().register(mockSkill).execute('mock', { value: 21 });
    expect(result.success).toBe(true);
    expect(result.output).toBe('42');
  });

  it('refuses invalid input with invalid_input naming the parameter', async () => {
    const registry = new SkillRegistry().register(mockSkill);
    const wrongType = await registry.execute('mock', { value: 'many' });
    expect(wrongType.kind).toBe('invalid_input');
    expect(wrongType.error).toContain('`value`');
    expect(wrongType.error).toContain('integer');
    const missing = await registry.execute('mock', {});
    expect(missing.kind).toBe('invalid_input');
    expect(missing.error).toMatch(/Missing required parameter `value`/);
  });
});

describe('SkillRegistry — laziness', () => {
  it('runs a factory once, only on first use, and never for definitions', async () => {
    let built = 0;
    const spec = { ...otherSkill, name: 'counted', factory: (services: ServiceContainer) => (built++, otherSkill.factory(services)) };
    const registry = new SkillRegistry().register(spec);
    registry.getDefinitions();
    registry.getDefinitions({ format: 'anthropic' });
    registry.getDefinitions({ format: 'mcp' });
    expect(registry.has('counted')).toBe(true);
    expect(built).toBe(0);
    await registry.execute('counted', {});
    await registry.execute('counted', {});
    expect(registry.get('counted')).toBe(registry.get('counted'));
    expect(built).toBe(1);
  });
});

describe('SkillRegistry — the issue snippet', () => {
  it('runs echo under the sandboxed preset', async () => {
    await using dir = await testdir();
    const services = new ServiceContainer();
    services.register('cwd', dir.path);
    services.register('permissions', resolvePreset('sandboxed', { cwd: dir.path }));
    const registry = new SkillRegistry(services).use(utilitySkills);
    const result = await registry.execute('echo', { message: 'hi' });
    expect(result.success).toBe(true);
    expect(result.output).toBe('hi');
  });
});

describe('SkillRegistry — documents', () => {
  it('keeps the documents of the families it uses, each once', () => {
    const documents = { listInstructions: async () => [] } as unknown as FamilyDocuments;
    const family = { name: 'docs', skills: [], documents };
    const registry = new SkillRegistry().use(utilitySkills, family, family);
    expect(registry.documents).toEqual([documents]);
  });
});
