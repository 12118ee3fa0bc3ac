import { mkdir, writeFile } from 'node:fs/promises';
import { testdir } from '@nexus/test-utils';
import { describe, expect, it } from 'vitest';
import {
  authorizePath,
  ConfigError,
  type ConfirmationRequest,
  defineSkill,
  PathSecurityError,
  resolvePreset,
  ServiceContainer,
  ToolResult,
} from './index.js';

describe('ServiceContainer', () => {
  it('registers, gets, requires, lists and removes services', () => {
    const services = new ServiceContainer().register('cwd', '/work').register('agentId', 'main');
    expect(services.get('cwd')).toBe('/work');
    expect(services.has('agentId')).toBe(true);
    expect(services.names()).toEqual(['cwd', 'agentId']);
    expect(services.unregister('agentId')).toBe('main');
    expect(services.get('agentId')).toBeUndefined();
    expect(() => services.require('agentId')).toThrow(ConfigError);
    services.clear();
    expect(services.names()).toEqual([]);
  });

  it('derives cwd, level, blocked and per-tool paths from the policy', () => {
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('sandboxed', { cwd: '/work/app', blockedPaths: ['/work/app/.git'] }))
      .register('blockedPaths', ['/work/app/.env']);
    expect(services.getCwd()).toBe('/work/app');
    expect(services.getPermissionLevel()).toBe('sandboxed');
    expect(services.getBlockedPaths()).toEqual(['/work/app/.git', '/work/app/.env']);
    expect(services.getToolAllowedPaths('read_file')).toEqual(['/work/app']);
  });

  it('without a policy, falls back to the allowedPaths service, then to cwd only', () => {
    expect(new ServiceContainer().register('cwd', '/w').getToolAllowedPaths('x')).toEqual(['/w']);
    expect(new ServiceContainer().register('allowedPaths', null).getToolAllowedPaths('x')).toBeNull();
  });

  it('confirm: granted at yolo, asks the confirm service otherwise, refused without one', async () => {
    const asked: ConfirmationRequest[] = [];
    const request = { tool: 'git', action: 'push' };
    expect(await new ServiceContainer().register('permissions', resolvePreset('yolo', { cwd: '/' })).confirm(request)).toBe(true);
    expect(await new ServiceContainer().register('permissions', resolvePreset('trusted', { cwd: '/' })).confirm(request)).toBe(false);
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('trusted', { cwd: '/' }))
      .register('confirm', (r) => (asked.push(r), true));
    expect(await services.confirm(request)).toBe(true);
    expect(asked).toEqual([request]);
  });

  it("confirm: the call's own way to ask wins over the service; yolo asks nobody", async () => {
    const asked: string[] = [];
    const request = { tool: 'git', action: 'push' };
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('trusted', { cwd: '/' }))
      .register('confirm', () => (asked.push('service'), true));
    expect(await services.confirm(request, () => (asked.push('caller'), false))).toBe(false);
    expect(await services.confirm(request, undefined)).toBe(true);
    expect(asked).toEqual(['caller', 'service']);
    const yolo = new ServiceContainer().register('permissions', resolvePreset('yolo', { cwd: '/' }));
    expect(await yolo.confirm(request, () => (asked.push('never'), false))).toBe(true);
    expect(asked).toHaveLength(2);
  });
});

describe('authorizePath', () => {
  it('lets trusted read outside cwd, and write outside only after confirmation', async () => {
    await using dir = await testdir({ app: { 'a.txt': 'a' }, other: { 'b.txt': 'b' } });
    const asked: string[] = [];
    let answer = false;
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('trusted', { cwd: dir.join('app') }))
      .register('confirm', ({ action }) => (asked.push(action), answer));
    await expect(authorizePath(services, 'read_file', '../other/b.txt')).resolves.toBe(dir.join('other', 'b.txt'));
    await expect(authorizePath(services, 'write_file', 'a.txt', { access: 'write' })).resolves.toBe(dir.join('app', 'a.txt'));
    await expect(authorizePath(services, 'write_file', '../other/b.txt', { access: 'write' })).rejects.toThrow(/needs confirmation/);
    answer = true;
    await expect(authorizePath(services, 'write_file', '../other/b.txt', { access: 'write' })).resolves.toBe(dir.join('other', 'b.txt'));
    expect(asked).toHaveLength(2);
    const confirm = ({ action }: ConfirmationRequest) => (asked.push(`call: ${action}`), false);
    await expect(authorizePath(services, 'write_file', '../other/b.txt', { access: 'write', confirm })).rejects.toThrow(
      /needs confirmation/,
    );
    expect(asked.at(-1)).toBe(`call: write outside the working directory: ${dir.join('other', 'b.txt')}`);
    expect(asked).toHaveLength(3);
  });

  it('never asks for blocked paths or sandboxed writes outside', async () => {
    await using dir = await testdir({ app: { secret: { 'k.txt': 'k' } }, other: {} });
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('trusted', { cwd: dir.join('app'), blockedPaths: [dir.join('app', 'secret')] }))
      .register('confirm', () => true);
    await expect(authorizePath(services, 'write_file', 'secret/k.txt', { access: 'write' })).rejects.toThrow(/blocked/);
    const sandboxed = new ServiceContainer()
      .register('permissions', resolvePreset('sandboxed', { cwd: dir.join('app') }))
      .register('confirm', () => true);
    await expect(authorizePath(sandboxed, 'write_file', '../other/x.txt', { access: 'write' })).rejects.toSatisfy((error: unknown) =>
      PathSecurityError.isInstance(error),
    );
  });

  it('applies a tool’s own roots', async () => {
    await using dir = await testdir({ out: {}, src: { 'a.ts': '' } });
    await mkdir(dir.join('out', 'x'));
    await writeFile(dir.join('out', 'x', 'r.txt'), 'r');
    const services = new ServiceContainer().register(
      'permissions',
      resolvePreset('sandboxed', { cwd: dir.path, tools: { write_file: { allowedPaths: [dir.join('out')] } } }),
    );
    await expect(authorizePath(services, 'write_file', 'src/a.ts', { access: 'write' })).rejects.toThrow(/outside the allowed paths/);
    await expect(authorizePath(services, 'write_file', 'out/x/r.txt', { access: 'write' })).resolves.toBe(dir.join('out', 'x', 'r.txt'));
  });
});

describe('defineSkill', () => {
  it('shares metadata between spec and instance and turns throws into results', async () => {
    const spec = defineSkill<{ path: string }>({
      name: 'probe',
      description: 'Reads a path.',
      readOnly: true,
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      create:
        (services) =>
        async ({ path }) =>
          ToolResult.ok(await authorizePath(services, 'probe', path)),
    });
    const skill = spec.factory(new ServiceContainer().register('cwd', '/work'));
    expect(skill).toMatchObject({ name: 'probe', description: 'Reads a path.', parameters: spec.parameters });
    expect(spec.readOnly).toBe(true);
    const refused = await skill.execute({ path: '/etc/passwd' });
    expect(refused).toMatchObject({ success: false, kind: 'forbidden' });
    const crashed = await defineSkill({
      name: 'boom',
      description: 'x',
      parameters: { type: 'object' },
      create: () => () => {
        throw new Error('kaput');
      },
    })
      .factory(new ServiceContainer())
      .execute({});
    expect(crashed).toMatchObject({ success: false, kind: 'execution_failed', error: 'kaput' });
  });
});
