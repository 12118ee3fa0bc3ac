import { type ConfirmationRequest, PathSecurityError } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveWorkingDirectory } from './index.js';

let tree: TestDir;
beforeEach(async () => {
  tree = await testdir({
    inside: { sub: {}, 'f.txt': 'x', link: { symlink: '../outside' }, blocked: {} },
    outside: {},
    'inside-evil': {},
  });
});
afterEach(async () => {
  await tree.cleanup();
});

const agent = (preset: 'sandboxed' | 'trusted', confirm?: boolean) =>
  createTestAgent({ cwd: tree.join('inside'), preset, blockedPaths: [tree.join('inside', 'blocked')], confirm });

describe('resolveWorkingDirectory', () => {
  it('defaults to the agent working directory and resolves relative paths against it', async () => {
    const { services } = agent('sandboxed');
    expect(await resolveWorkingDirectory(services, 'bash_safe')).toBe(tree.join('inside'));
    expect(await resolveWorkingDirectory(services, 'bash_safe', 'sub')).toBe(tree.join('inside', 'sub'));
  });

  it('refuses directories outside the sandbox, prefix siblings, symlinks out and blocked paths', async () => {
    const { services } = agent('sandboxed');
    for (const cwd of ['..', '/', tree.join('outside'), tree.join('inside-evil'), 'link', '/proc/self/root', 'blocked', '~']) {
      await expect(resolveWorkingDirectory(services, 'git', cwd), cwd).rejects.toBeInstanceOf(PathSecurityError);
    }
    await expect(resolveWorkingDirectory(agent('trusted').services, 'bash_safe', 'blocked')).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('says what is wrong with a file, a missing directory or a value that is no path', async () => {
    const { services } = agent('sandboxed');
    await expect(resolveWorkingDirectory(services, 'git', 'f.txt')).rejects.toMatchObject({ kind: 'invalid_input', parameter: 'cwd' });
    await expect(resolveWorkingDirectory(services, 'git', 'missing')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(resolveWorkingDirectory(services, 'git', 3 as unknown as string)).rejects.toMatchObject({
      kind: 'invalid_input',
      message: 'Expected `cwd` to be a path string, got number.',
    });
  });

  it("asks the call's own confirm, not the confirm service, before writing outside the working directory at trusted", async () => {
    const refusing = agent('trusted', false);
    const asked: ConfirmationRequest[] = [];
    const callConfirm = (request: ConfirmationRequest) => (asked.push(request), true);
    expect(await resolveWorkingDirectory(refusing.services, 'git', tree.join('outside'), { access: 'write', confirm: callConfirm })).toBe(
      tree.join('outside'),
    );
    expect(asked).toEqual([
      { tool: 'git', action: `write outside the working directory: ${tree.join('outside')}`, path: tree.join('outside') },
    ]);
    expect(refusing.confirmations).toEqual([]);

    await expect(resolveWorkingDirectory(refusing.services, 'git', tree.join('outside'), { access: 'write' })).rejects.toMatchObject({
      kind: 'forbidden',
    });
    expect(refusing.confirmations).toHaveLength(1);
    expect(await resolveWorkingDirectory(refusing.services, 'git', tree.join('outside'))).toBe(tree.join('outside'));
  });
});
