import { describe, expect, it } from 'vitest';
import { findToolRefusal, isToolEnabled, resolvePreset, ServiceContainer } from './index.js';

const policy = () => resolvePreset('trusted', { cwd: '/work', tools: { grep: { enabled: false } } });

describe('a tool scope (the tools a skill allows while the agent follows it)', () => {
  it('narrows the policy getPermissions() answers to the scope’s tools, until it is lifted', () => {
    const services = new ServiceContainer().register('permissions', policy());
    const base = services.getPermissions();
    services.register('toolScope', { skill: 'release-notes', tools: ['read_file', 'git'] });
    const narrowed = services.getPermissions();
    expect(findToolRefusal(narrowed, 'read_file')).toBeUndefined();
    expect(findToolRefusal(narrowed, 'git', 'trusted')).toBeUndefined();
    expect(findToolRefusal(narrowed, 'write_file')).toBe(
      'Tool "write_file" is not one of the tools the skill "release-notes" allows (read_file, git) while the agent follows it; taking another skill leaves it.',
    );
    expect(services.getPermissions()).toBe(narrowed);
    expect(services.get('permissions')).toBe(base);
    services.unregister('toolScope');
    expect(services.getPermissions()).toBe(base);
    expect(isToolEnabled(services.getPermissions() as NonNullable<typeof base>, 'write_file')).toBe(true);
  });

  it('never widens: a tool the policy disables or a level it lacks stays refused inside the scope', () => {
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('sandboxed', { cwd: '/work', tools: { grep: { enabled: false } } }))
      .register('toolScope', { skill: 's', tools: ['grep', 'bash_safe'] });
    expect(findToolRefusal(services.getPermissions(), 'grep')).toBe('Tool "grep" is disabled by this agent\'s permissions.');
    expect(findToolRefusal(services.getPermissions(), 'bash_safe', 'trusted')).toContain('needs the "trusted" permission level');
  });
});
