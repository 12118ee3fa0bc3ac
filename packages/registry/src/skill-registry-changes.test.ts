import { defineSkill, type SkillSpec, ToolResult } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { type RegistryChange, SkillRegistry } from './index.js';
import { createChangingTestFamily } from './testing.js';

function answering(name: string, answer: string, parameters: SkillSpec['parameters'] = { type: 'object', properties: {} }): SkillSpec {
  return defineSkill({ name, description: `Answers ${answer}.`, parameters, create: () => () => ToolResult.ok(answer) });
}

/** A changing family that also counts the refreshes the registry asks for. */
function changingFamily(initial: SkillSpec[]) {
  const refreshed: (string | undefined)[] = [];
  let beforeCall: ((tool: string | undefined) => void) | undefined;
  return Object.assign(createChangingTestFamily({ skills: initial }), {
    async refresh(tool?: string) {
      refreshed.push(tool);
      beforeCall?.(tool);
    },
    refreshed,
    onRefresh(hook: typeof beforeCall) {
      beforeCall = hook;
    },
  });
}

describe('SkillRegistry changes', () => {
  it('replaces and removes skills, each change reported once with a new version', async () => {
    const registry = new SkillRegistry().register(answering('a', 'one'));
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    const before = registry.version;
    registry.replace(answering('a', 'two'));
    expect((await registry.execute('a')).output).toBe('two');
    registry.replace(answering('b', 'three'));
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.names).toEqual(['b']);
    expect((await registry.execute('a')).kind).toBe('not_found');
    expect(changes).toEqual([
      { added: [], removed: [], changed: ['a'] },
      { added: ['b'], removed: [], changed: [] },
      { added: [], removed: ['a'], changed: [] },
    ]);
    expect(registry.version).toBe(before + 3);
  });

  it('refuses an invalid replacement and keeps the old skill', async () => {
    const registry = new SkillRegistry().register(answering('a', 'one'));
    expect(() => registry.replace({ ...answering('a', 'two'), description: '' })).toThrow(/description/);
    expect((await registry.execute('a')).output).toBe('one');
  });

  it('follows a changing family: added, changed and removed names in one change, other families untouched', async () => {
    const family = changingFamily([answering('keep', 'k'), answering('edit', 'old'), answering('drop', 'd')]);
    const registry = new SkillRegistry().register(answering('other', 'o')).use(family);
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    const keep = family.skills[0] as SkillSpec;
    family.set([keep, answering('edit', 'new'), answering('fresh', 'f')]);
    expect(changes).toEqual([{ added: ['fresh'], removed: ['drop'], changed: ['edit'] }]);
    expect(registry.names.sort()).toEqual(['edit', 'fresh', 'keep', 'other']);
    expect((await registry.execute('edit')).output).toBe('new');
    family.set([keep]);
    expect(changes.at(-1)).toEqual({ added: [], removed: ['edit', 'fresh'], changed: [] });
  });

  it('refuses a family change that takes another skill name, changing nothing', () => {
    const family = changingFamily([answering('mine', 'm')]);
    const registry = new SkillRegistry().register(answering('theirs', 't')).use(family);
    expect(() => family.set([answering('theirs', 'stolen')])).toThrow(/already registered by another family/);
    expect(registry.names).toEqual(['theirs', 'mine']);
  });

  it("asks the tool's family to refresh before each call, every changing family for an unknown name, and on refresh()", async () => {
    const family = changingFamily([answering('mine', 'm')]);
    const registry = new SkillRegistry().register(answering('plain', 'p')).use(family);
    family.onRefresh((tool) => {
      if (tool === 'late') family.set([answering('mine', 'm'), answering('late', 'arrived')]);
    });
    await registry.execute('plain');
    await registry.execute('mine');
    expect((await registry.execute('late')).output).toBe('arrived');
    await registry.refresh();
    expect(family.refreshed).toEqual(['mine', 'late', undefined]);
  });

  it('validates against the version found after the refresh: a listed placeholder swapped for the real schema', async () => {
    const open = { type: 'object' as const, properties: {}, additionalProperties: true };
    const family = changingFamily([answering('tool', 'ghost', open)]);
    const registry = new SkillRegistry().use(family);
    const real = { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] };
    family.onRefresh((tool) => {
      if (tool === 'tool' && family.skills[0]?.description.includes('ghost')) family.set([answering('tool', 'real', real)]);
    });
    const refused = await registry.execute('tool', { n: 'many' });
    expect(refused).toMatchObject({ kind: 'invalid_input' });
    expect(refused.error).toContain('`n`');
    expect((await registry.execute('tool', { n: 2 })).output).toBe('real');
  });

  it('validates a new version whose schema keeps the old one’s $id, and two skills sharing an $id', async () => {
    const withId = (): SkillSpec['parameters'] => ({
      $id: 'https://example.com/schemas/lookup',
      type: 'object',
      properties: { key: { type: 'string' } },
      required: ['key'],
    });
    const family = changingFamily([answering('lookup', 'one', withId())]);
    const registry = new SkillRegistry().use(family).register(answering('twin', 'twin', withId()));
    expect((await registry.execute('lookup', { key: 'k' })).output).toBe('one');
    family.set([answering('lookup', 'two', withId())]);
    expect(await registry.execute('lookup', { key: 'k' })).toMatchObject({ error: '', output: 'two' });
    expect(await registry.execute('lookup', {})).toMatchObject({ kind: 'invalid_input', data: { parameters: ['key'] } });
    expect(await registry.execute('twin', { key: 'k' })).toMatchObject({ error: '', output: 'twin' });
  });

  it('lets a call that started on the old version finish on it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineSkill({
      name: 'job',
      description: 'Old version.',
      parameters: { type: 'object', properties: {} },
      create: () => async () => {
        await gate;
        return ToolResult.ok('old');
      },
    });
    const family = changingFamily([slow]);
    const registry = new SkillRegistry().use(family);
    const running = registry.execute('job');
    await expect.poll(() => registry.get('job') !== undefined).toBe(true);
    family.set([answering('job', 'new')]);
    release();
    expect((await running).output).toBe('old');
    expect((await registry.execute('job')).output).toBe('new');
    expect(registry.getDefinitions().map((tool) => tool.function.description)).toEqual(['Answers new.']);
  });

  it('stops following its changing families once closed: none keeps a listener of it, and their changes reach nobody through it', async () => {
    const family = changingFamily([answering('a', 'one')]);
    const registry = new SkillRegistry().use(family);
    const other = new SkillRegistry().use(family);
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    expect(family.listenerCount).toBe(2);

    registry.close();
    registry.close();

    expect(family.listenerCount).toBe(1);
    family.set([answering('a', 'two'), answering('b', 'b')]);
    expect(changes).toEqual([]);
    expect(registry.names).toEqual(['a']);
    expect((await registry.execute('a')).output).toBe('one');
    await registry.refresh();
    expect(family.refreshed).toEqual([]);
    expect(other.names).toEqual(['a', 'b']);
    const later = changingFamily([answering('later', 'l')]);
    registry.use(later);
    expect(registry.names).toEqual(['a', 'later']);
    expect(later.listenerCount).toBe(0);
  });

  it('is closed by `using`', () => {
    const family = createChangingTestFamily({ skills: [answering('a', 'one')] });
    {
      using registry = new SkillRegistry().use(family);
      expect(registry.has('a')).toBe(true);
      expect(family.listenerCount).toBe(1);
    }
    expect(family.listenerCount).toBe(0);
  });
});
