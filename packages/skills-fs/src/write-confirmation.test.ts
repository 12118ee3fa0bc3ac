import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfirmationRequest, ConfirmFunction } from '@nexus/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dir.cleanup();
  workspace = undefined;
});

/** At `trusted`, with a `confirm` service that refuses everything: only a call's own confirm can approve. */
function createTrustedWorkspace(): Promise<Workspace> {
  return createWorkspace(
    { 'inside.txt': 'inside\n' },
    { preset: 'trusted', confirm: false, outside: { 'secret.txt': 'top secret\n', 'old.txt': 'old\n' } },
  );
}

/** A confirm function that answers `answer`, and what it was asked. */
function recordingConfirm(answer: boolean): { confirm: ConfirmFunction; requests: ConfirmationRequest[] } {
  const requests: ConfirmationRequest[] = [];
  return {
    requests,
    confirm: (request) => {
      requests.push(request);
      return answer;
    },
  };
}

const text = (outside: string, name: string) => readFile(join(outside, name), 'utf8');

/** Every write skill, pointed at a path in `outside/`, and what `outside/` then holds. */
const WRITES: Record<string, { args: (outside: string) => Record<string, unknown>; expectWritten: (outside: string) => Promise<void> }> = {
  write_file: {
    args: (outside) => ({ path: join(outside, 'new.txt'), content: 'new\n' }),
    expectWritten: async (outside) => expect(await text(outside, 'new.txt')).toBe('new\n'),
  },
  edit_file: {
    args: (outside) => ({ path: join(outside, 'old.txt'), old_string: 'old', new_string: 'new' }),
    expectWritten: async (outside) => expect(await text(outside, 'old.txt')).toBe('new\n'),
  },
  edit_lines: {
    args: (outside) => ({ path: join(outside, 'old.txt'), start_line: 1, new_content: 'new' }),
    expectWritten: async (outside) => expect(await text(outside, 'old.txt')).toBe('new\n'),
  },
  append_file: {
    args: (outside) => ({ path: join(outside, 'old.txt'), content: 'more' }),
    expectWritten: async (outside) => expect(await text(outside, 'old.txt')).toBe('old\nmore'),
  },
  regex_replace: {
    args: (outside) => ({ path: join(outside, 'old.txt'), pattern: 'o(l)d', replacement: 'n$1w' }),
    expectWritten: async (outside) => expect(await text(outside, 'old.txt')).toBe('nlw\n'),
  },
  patch: {
    args: (outside) => ({ target: join(outside, 'old.txt'), diff: '@@ -1 +1 @@\n-old\n+new\n' }),
    expectWritten: async (outside) => expect(await text(outside, 'old.txt')).toBe('new\n'),
  },
  copy_file: {
    args: (outside) => ({ source: 'inside.txt', destination: join(outside, 'copy.txt') }),
    expectWritten: async (outside) => expect(await text(outside, 'copy.txt')).toBe('inside\n'),
  },
  mkdir: {
    args: (outside) => ({ path: join(outside, 'made') }),
    expectWritten: async (outside) => expect((await stat(join(outside, 'made'))).isDirectory()).toBe(true),
  },
  rename: {
    args: (outside) => ({ source: 'inside.txt', destination: join(outside, 'moved.txt') }),
    expectWritten: async (outside) => expect(await text(outside, 'moved.txt')).toBe('inside\n'),
  },
};

describe('a write outside the working directory asks the confirm of the call that makes it', () => {
  test('write_file asks the call’s confirm, not the confirm service, and writes', async () => {
    workspace = await createTrustedWorkspace();
    const approve = recordingConfirm(true);
    const target = join(workspace.outside, 'approved.txt');
    const result = await workspace.registry.execute('write_file', { path: target, content: 'approved\n' }, { confirm: approve.confirm });
    expect(result.success, result.error).toBe(true);
    expect(approve.requests).toEqual([{ tool: 'write_file', action: `write outside the working directory: ${target}`, path: target }]);
    expect(workspace.confirmations).toEqual([]);
    expect(await readFile(target, 'utf8')).toBe('approved\n');
  });

  test('without a confirm of its own the call falls back to the confirm service, which refuses here', async () => {
    workspace = await createTrustedWorkspace();
    const target = join(workspace.outside, 'refused.txt');
    const result = await workspace.call('write_file', { path: target, content: 'refused\n' });
    expect(result.kind).toBe('forbidden');
    expect(workspace.confirmations).toHaveLength(1);
    await expect(stat(target)).rejects.toThrow();
  });

  test.each(Object.keys(WRITES))('%s asks the call’s confirm', async (tool) => {
    workspace = await createTrustedWorkspace();
    const { args, expectWritten } = WRITES[tool] as (typeof WRITES)[string];
    const approve = recordingConfirm(true);
    const result = await workspace.registry.execute(tool, args(workspace.outside), { confirm: approve.confirm });
    expect(result.success, result.error).toBe(true);
    expect(approve.requests.length).toBeGreaterThan(0);
    expect(approve.requests.every((request) => request.tool === tool)).toBe(true);
    expect(workspace.confirmations).toEqual([]);
    await expectWritten(workspace.outside);
  });

  test('two concurrent calls with different confirms each get their own answer', async () => {
    workspace = await createTrustedWorkspace();
    // Neither confirm answers before both calls are waiting on theirs, so the calls overlap.
    let release!: () => void;
    const bothAsked = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = 0;
    const answerOnceBothAsked = (answer: boolean) => async () => {
      if (++asked === 2) release();
      await bothAsked;
      return answer;
    };
    const approved = join(workspace.outside, 'approved.txt');
    const refused = join(workspace.outside, 'refused.txt');
    const [yes, no] = await Promise.all([
      workspace.registry.execute('write_file', { path: approved, content: 'yes\n' }, { confirm: answerOnceBothAsked(true) }),
      workspace.registry.execute('write_file', { path: refused, content: 'no\n' }, { confirm: answerOnceBothAsked(false) }),
    ]);
    expect(asked).toBe(2);
    expect(yes.success, yes.error).toBe(true);
    expect(no.kind).toBe('forbidden');
    expect(await readFile(approved, 'utf8')).toBe('yes\n');
    await expect(stat(refused)).rejects.toThrow();
    expect(workspace.confirmations).toEqual([]);
  });

  test('a write inside the working directory asks no one', async () => {
    workspace = await createTrustedWorkspace();
    const approve = recordingConfirm(true);
    const result = await workspace.registry.execute(
      'write_file',
      { path: 'inside.txt', content: 'changed\n' },
      { confirm: approve.confirm },
    );
    expect(result.success, result.error).toBe(true);
    expect(approve.requests).toEqual([]);
  });
});
