import { InvalidOptionError, NexusError, resolvePreset, ServiceContainer } from '@nexus/core';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseExecSettings, resolveCommandIsolation, resolveCommandSandbox } from './index.js';
import { bubblewrapSkipReason } from './testing.js';

const skipReason = await bubblewrapSkipReason();

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({ project: {}, notes: {} });
});
afterEach(async () => {
  await dir.cleanup();
});

/** Runs `action` with a PATH on which no bwrap is found. */
async function withoutBubblewrap<T>(action: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = dir.path;
  try {
    return await action();
  } finally {
    process.env.PATH = saved;
  }
}

describe('parseExecSettings', () => {
  it('fills in the defaults: sandbox auto, network on', () => {
    expect(parseExecSettings(undefined)).toEqual({ sandbox: 'auto', network: true });
    expect(parseExecSettings({ network: false })).toEqual({ sandbox: 'auto', network: false });
    expect(parseExecSettings({ sandbox: 'bubblewrap' })).toEqual({ sandbox: 'bubblewrap', network: true });
  });

  it('names the bad setting', () => {
    const attempts = [{ sandbox: 'docker' }, { network: 'no' }, { sandbox: 'none', colour: 'red' }, 'auto'];
    const errors = attempts.map((value) => {
      try {
        return parseExecSettings(value);
      } catch (error) {
        return error;
      }
    });
    expect(errors.map((error) => InvalidOptionError.isInstance(error) && error.option)).toEqual([
      'exec.sandbox',
      'exec.network',
      'exec.colour',
      'exec',
    ]);
    expect((errors[0] as Error).message).toBe('Expected `exec.sandbox` to be "auto", "bubblewrap" or "none", got "docker".');
  });
});

describe('resolveCommandIsolation', () => {
  it('runs unisolated when told so, and at yolo unless bubblewrap is asked for', async () => {
    expect(await resolveCommandIsolation({ sandbox: 'none', network: true }, 'trusted')).toEqual({
      isolation: 'none',
      reason: 'exec.sandbox is "none"',
    });
    expect(await resolveCommandIsolation({ sandbox: 'auto', network: true }, 'yolo')).toEqual({
      isolation: 'none',
      reason: 'the yolo level runs commands unisolated unless exec.sandbox is "bubblewrap"',
    });
  });

  it.skipIf(skipReason !== '')(`uses bubblewrap at trusted and sandboxed, and at yolo when asked for${skipReason}`, async () => {
    for (const level of ['sandboxed', 'trusted'] as const) {
      expect(await resolveCommandIsolation({ sandbox: 'auto', network: true }, level)).toEqual({ isolation: 'bubblewrap' });
    }
    expect(await resolveCommandIsolation({ sandbox: 'bubblewrap', network: false }, 'yolo')).toEqual({ isolation: 'bubblewrap' });
  });

  it('with auto, runs unisolated where bubblewrap is missing and says why', async () => {
    expect(await withoutBubblewrap(() => resolveCommandIsolation({ sandbox: 'auto', network: true }, 'trusted'))).toEqual({
      isolation: 'none',
      reason: 'bubblewrap (bwrap) is not installed (not found on PATH; the Debian and Ubuntu package is "bubblewrap")',
    });
  });

  it('refuses, saying why, where bubblewrap is asked for and missing', async () => {
    const error = await withoutBubblewrap(() => resolveCommandIsolation({ sandbox: 'bubblewrap', network: true }, 'trusted')).catch(
      (caught: unknown) => caught,
    );
    expect(NexusError.isInstance(error) && error.code).toBe('SANDBOX_UNAVAILABLE');
    expect((error as Error).message).toBe(
      'Commands must run inside bubblewrap (exec.sandbox is "bubblewrap"), but bubblewrap (bwrap) is not installed (not found on PATH; the Debian and Ubuntu package is "bubblewrap"), so they are refused.',
    );
  });
});

describe('resolveCommandSandbox', () => {
  function services(preset: 'trusted' | 'yolo', exec?: unknown) {
    const container = new ServiceContainer()
      .register('cwd', dir.join('project'))
      .register(
        'permissions',
        resolvePreset(preset, {
          cwd: dir.join('project'),
          allowedPaths: [dir.join('notes')],
          blockedPaths: [dir.join('project', '.env')],
          tools: { own_paths: { allowedPaths: [dir.join('notes')] } },
        }),
      )
      .register('blockedPaths', [dir.join('secrets')]);
    if (exec !== undefined) container.register('exec', exec as never);
    return container;
  }

  it.skipIf(skipReason !== '')(`gives the tool's write roots, the blocked paths and the network setting${skipReason}`, async () => {
    expect(await resolveCommandSandbox(services('trusted'), 'any_tool')).toEqual({
      writePaths: [dir.join('project'), dir.join('notes')],
      blockedPaths: [dir.join('project', '.env'), dir.join('secrets')],
      network: true,
    });
    expect(await resolveCommandSandbox(services('trusted', { network: false }), 'own_paths')).toEqual({
      writePaths: [dir.join('notes')],
      blockedPaths: [dir.join('project', '.env'), dir.join('secrets')],
      network: false,
    });
    expect(await resolveCommandSandbox(services('yolo', { sandbox: 'bubblewrap' }), 'any_tool')).toMatchObject({ writePaths: null });
  });

  it('is undefined when commands run unisolated, and checks the exec service', async () => {
    expect(await resolveCommandSandbox(services('yolo'), 'any_tool')).toBeUndefined();
    expect(await resolveCommandSandbox(services('trusted', { sandbox: 'none' }), 'any_tool')).toBeUndefined();
    await expect(resolveCommandSandbox(services('trusted', { sandbox: 'always' }), 'any_tool')).rejects.toMatchObject({
      option: 'exec.sandbox',
    });
    await expect(
      withoutBubblewrap(() => resolveCommandSandbox(services('trusted', { sandbox: 'bubblewrap' }), 'any_tool')),
    ).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
  });
});
