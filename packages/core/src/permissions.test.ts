import { describe, expect, it } from 'vitest';
import {
  assertWithinCeiling,
  ConfigError,
  findCeilingViolations,
  findToolRefusal,
  isToolEnabled,
  levelAtLeast,
  PermissionDeniedError,
  resolvePreset,
  resolveToolAllowedPaths,
} from './index.js';

const cwd = '/work/app';

describe('resolvePreset', () => {
  it('sandboxed: read and write inside cwd only', () => {
    const permissions = resolvePreset('sandboxed', { cwd });
    expect(permissions).toMatchObject({
      level: 'sandboxed',
      cwd,
      allowedPaths: [cwd],
      writePaths: [cwd],
      confirmWritesOutside: false,
      blockedPaths: [],
    });
  });

  it('trusted: read anywhere, write inside cwd, confirm writes outside', () => {
    expect(resolvePreset('trusted', { cwd })).toMatchObject({
      level: 'trusted',
      allowedPaths: null,
      writePaths: [cwd],
      confirmWritesOutside: true,
    });
  });

  it('yolo: anywhere not blocked, never asks', () => {
    expect(resolvePreset('yolo', { cwd, blockedPaths: ['~/.ssh', 'secrets'] })).toMatchObject({
      allowedPaths: null,
      writePaths: null,
      confirmWritesOutside: false,
      blockedPaths: [expect.stringMatching(/\/\.ssh$/), '/work/app/secrets'],
    });
  });

  it('adds extra roots and per-tool overrides', () => {
    const permissions = resolvePreset('sandboxed', {
      cwd,
      allowedPaths: ['../shared'],
      tools: { write_file: { allowedPaths: ['/work/app/out'] }, bash_safe: { enabled: false } },
    });
    expect(permissions.allowedPaths).toEqual([cwd, '/work/shared']);
    expect(permissions.tools.write_file).toEqual({ enabled: true, allowedPaths: ['/work/app/out'] });
    expect(isToolEnabled(permissions, 'bash_safe')).toBe(false);
  });

  it('refuses unknown presets and a missing cwd with a clear ConfigError', () => {
    expect(() => resolvePreset('root' as never, { cwd })).toThrow(/Unknown preset "root"/);
    expect(() => resolvePreset('yolo', { cwd: '' })).toThrow(ConfigError);
  });
});

describe('per-tool path resolution', () => {
  const permissions = resolvePreset('trusted', { cwd, tools: { read_file: { allowedPaths: ['/docs'] }, grep: { allowedPaths: null } } });
  it('uses the tool’s own paths first, then the policy’s read or write roots', () => {
    expect(resolveToolAllowedPaths(permissions, 'read_file')).toEqual(['/docs']);
    expect(resolveToolAllowedPaths(permissions, 'grep', 'write')).toBeNull();
    expect(resolveToolAllowedPaths(permissions, 'write_file', 'write')).toEqual([cwd]);
    expect(resolveToolAllowedPaths(permissions, 'write_file', 'read')).toBeNull();
  });
});

describe('findToolRefusal', () => {
  it('refuses a disabled tool and one below its minimum level, saying why; without a policy the level is sandboxed', () => {
    const sandboxed = resolvePreset('sandboxed', { cwd, tools: { grep: { enabled: false } } });
    expect(findToolRefusal(sandboxed, 'grep')).toBe('Tool "grep" is disabled by this agent\'s permissions.');
    expect(findToolRefusal(sandboxed, 'bash_safe', 'trusted')).toMatch(
      /needs the "trusted" permission level or higher; this agent is "sandboxed"/,
    );
    expect(findToolRefusal(undefined, 'bash_safe', 'trusted')).toMatch(/no permission policy is registered/);
    expect(findToolRefusal(resolvePreset('trusted', { cwd }), 'bash_safe', 'trusted')).toBeUndefined();
    expect(findToolRefusal(undefined, 'read_file')).toBeUndefined();
  });

  it('under a read-only policy, refuses every tool not marked readOnly but those it excepts, by the metadata it is given', () => {
    const reader = { ...resolvePreset('sandboxed', { cwd }), readOnly: { except: ['nexus_send'] } };
    expect(findToolRefusal(reader, 'scribble', { readOnly: false })).toBe(
      'Tool "scribble" is not read-only, and this agent may run only read-only tools.',
    );
    expect(findToolRefusal(reader, 'scribble')).toMatch(/not read-only/);
    expect(findToolRefusal(reader, 'lookup', { readOnly: true })).toBeUndefined();
    expect(findToolRefusal(reader, 'nexus_send', {})).toBeUndefined();
    expect(findToolRefusal(reader, 'bash_safe', { minimumLevel: 'trusted', readOnly: true })).toMatch(/needs the "trusted"/);
    expect(isToolEnabled(resolvePreset('sandboxed', { cwd }), 'scribble', {})).toBe(true);
  });
});

describe('levels', () => {
  it('orders sandboxed < trusted < yolo', () => {
    expect(levelAtLeast('yolo', 'trusted')).toBe(true);
    expect(levelAtLeast('trusted', 'trusted')).toBe(true);
    expect(levelAtLeast('sandboxed', 'trusted')).toBe(false);
    expect(isToolEnabled(resolvePreset('sandboxed', { cwd }), 'bash_safe', 'trusted')).toBe(false);
  });
});

describe('ceiling', () => {
  const parent = resolvePreset('trusted', { cwd, blockedPaths: ['/work/app/.env'], tools: { shell_UNSAFE: { enabled: false } } });

  it('accepts a child that asks for less', () => {
    const child = resolvePreset('sandboxed', {
      cwd: '/work/app/sub',
      blockedPaths: ['/work/app/.env'],
      tools: { shell_UNSAFE: { enabled: false } },
    });
    expect(findCeilingViolations(parent, child)).toEqual([]);
    expect(() => assertWithinCeiling(parent, child)).not.toThrow();
  });

  it('lists every way a child exceeds its parent', () => {
    const child = resolvePreset('yolo', { cwd: '/elsewhere' });
    const violations = findCeilingViolations(parent, child);
    expect(violations.join('\n')).toMatch(/level "yolo" exceeds/);
    expect(violations.join('\n')).toMatch(/writePaths/);
    expect(violations.join('\n')).toMatch(/\.env" is not blocked/);
    expect(violations.join('\n')).toMatch(/shell_UNSAFE" is disabled/);
    expect(() => assertWithinCeiling(parent, child)).toThrow(PermissionDeniedError);
  });

  it('catches a child whose own per-tool paths widen what the parent allows', () => {
    const sandboxedParent = resolvePreset('sandboxed', { cwd });
    const child = resolvePreset('sandboxed', { cwd, tools: { write_file: { allowedPaths: ['/etc'] }, read_file: { allowedPaths: null } } });
    const violations = findCeilingViolations(sandboxedParent, child).join('\n');
    expect(violations).toMatch(/write_file" reaches outside the parent's read paths/);
    expect(violations).toMatch(/write_file" reaches outside the parent's write paths/);
    expect(violations).toMatch(/read_file" reaches outside the parent's read paths/);
  });

  it('refuses a sandboxed child rooted outside a sandboxed parent', () => {
    const sandboxedParent = resolvePreset('sandboxed', { cwd });
    expect(findCeilingViolations(sandboxedParent, resolvePreset('sandboxed', { cwd: '/work/app-evil' }))).toContain(
      "allowedPaths reach outside the parent's",
    );
  });

  it('keeps a read-only parent’s child read-only, excepting no more tools than the parent', () => {
    const reader = { ...resolvePreset('sandboxed', { cwd }), readOnly: { except: ['nexus_send'] } };
    expect(findCeilingViolations(reader, reader)).toEqual([]);
    for (const child of [resolvePreset('sandboxed', { cwd }), { ...reader, readOnly: { except: ['nexus_send', 'scribble'] } }])
      expect(findCeilingViolations(reader, child)).toContain('the child may run tools that are not read-only, which the parent may not');
  });
});
