import { mkdir } from 'node:fs/promises';
import type { PermissionLevel } from '@nexus/core';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AgentGrant,
  decideGrant,
  MAX_AGENT_DEPTH,
  type ParentAgent,
  type PermissionBase,
  permissionsOf,
} from './child-permissions.js';

let dir: TestDir;
let base: PermissionBase;
beforeEach(async () => {
  dir = await testdir({ work: { sub: {} } });
  base = { cwd: dir.join('work'), blockedPaths: [], tools: {} };
});
afterEach(() => dir.cleanup());

function parentAt(level: PermissionLevel, depth = 1, grant: Partial<AgentGrant> = {}): ParentAgent {
  const full: AgentGrant = { preset: level, cwd: dir.join('work'), writePaths: [], disabledTools: [], ...grant };
  return { id: 'parent', grant: full, permissions: permissionsOf(full, base), depth };
}

describe('decideGrant: levels', () => {
  const cases: Array<[PermissionLevel | 'token holder', PermissionLevel, boolean]> = [
    ['token holder', 'trusted', true],
    ['token holder', 'sandboxed', true],
    ['token holder', 'yolo', false],
    ['yolo', 'trusted', true],
    ['yolo', 'sandboxed', true],
    ['yolo', 'yolo', false],
    ['trusted', 'sandboxed', true],
    ['trusted', 'trusted', false],
    ['trusted', 'yolo', false],
    ['sandboxed', 'sandboxed', false],
    ['sandboxed', 'trusted', false],
  ];
  it.each(cases)('%s creating a %s agent: allowed %s', async (parent, preset, allowed) => {
    const decided = decideGrant({ preset }, parent === 'token holder' ? undefined : parentAt(parent), base);
    if (allowed) await expect(decided).resolves.toMatchObject({ preset });
    else await expect(decided).rejects.toMatchObject({ rpcCode: -32602 });
  });

  it(`refuses a child deeper than ${MAX_AGENT_DEPTH}`, async () => {
    await expect(decideGrant({ preset: 'trusted' }, parentAt('yolo', MAX_AGENT_DEPTH - 1), base)).resolves.toMatchObject({
      preset: 'trusted',
    });
    await expect(decideGrant({ preset: 'trusted' }, parentAt('yolo', MAX_AGENT_DEPTH), base)).rejects.toThrow(/at most 5 deep/);
  });
});

describe('decideGrant: paths and tools', () => {
  it('resolves cwd against the parent’s, and keeps the parent’s disabled tools', async () => {
    const grant = await decideGrant({ cwd: 'sub', disableTools: ['glob'] }, parentAt('trusted', 1, { disabledTools: ['grep'] }), base);
    expect(grant).toEqual({ preset: 'sandboxed', cwd: dir.join('work', 'sub'), writePaths: [], disabledTools: ['glob', 'grep'] });
  });

  it('a yolo parent may give write paths anywhere; a trusted one only inside its own', async () => {
    await mkdir(dir.join('outside'));
    const request = { preset: 'trusted' as const, cwd: dir.join('outside'), allowedWritePaths: ['.'] };
    await expect(decideGrant(request, parentAt('yolo'), base)).resolves.toMatchObject({ writePaths: [dir.join('outside')] });
    await expect(decideGrant({ ...request, preset: 'sandboxed' }, parentAt('trusted'), base)).rejects.toThrow(
      /outside what "parent" may write/,
    );
  });

  it('never lets a child reach a path blocked for everyone', async () => {
    const blocked = { ...base, blockedPaths: [dir.join('work', 'sub')] };
    const parent = { ...parentAt('trusted'), permissions: permissionsOf(parentAt('trusted').grant, blocked) };
    const grant = await decideGrant({}, parent, blocked);
    expect(permissionsOf(grant, blocked).blockedPaths).toContain(dir.join('work', 'sub'));
  });
});
