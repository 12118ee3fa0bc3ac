import { readdir, readFile } from 'node:fs/promises';
import type { ConfirmationRequest, ConfirmFunction } from '@nexus/core';
import { testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness-fixture.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const create = { action: 'create', project: 'group/project', title: 'From the agent' };

describe('trusted', () => {
  it('asks before a mutating action and says what will be sent', async () => {
    h = await createHarness({ preset: 'trusted', confirm: true });
    const result = await h.call('gitlab_issue', create);
    expect(result.error).toBe('');
    expect(h.confirmations).toEqual([
      {
        tool: 'gitlab_issue',
        action: "create on GitLab instance 'work' (project group/project)",
        detail: `POST ${h.server.url}/api/v4/projects/group%2Fproject/issues {"title":"From the agent"}`,
      },
    ]);
    expect(h.server.writes()).toHaveLength(1);
  });

  it('sends nothing when the user says no', async () => {
    h = await createHarness({ preset: 'trusted', confirm: false });
    const result = await h.call('gitlab_issue', create);
    expect(result.kind).toBe('forbidden');
    expect(result.error).toBe('GitLab action denied by user: gitlab_issue create was not confirmed.');
    expect(h.server.writes()).toEqual([]);
  });

  it('refuses mutating actions when there is no one to ask', async () => {
    h = await createHarness({ preset: 'trusted' });
    const result = await h.call('gitlab_branch', { action: 'delete', project: 'group/project', name: 'main' });
    expect(result.kind).toBe('forbidden');
    expect(h.server.writes()).toEqual([]);
  });

  it('runs read-only actions without asking', async () => {
    h = await createHarness({ preset: 'trusted', confirm: false });
    expect((await h.call('gitlab_issue', { action: 'list', project: 'group/project' })).success).toBe(true);
    expect(h.confirmations).toEqual([]);
  });

  it('answers a dry run without asking and without sending', async () => {
    h = await createHarness({ preset: 'trusted', confirm: false });
    const result = await h.call('gitlab_issue', { ...create, dry_run: true });
    expect(result.output).toBe(
      `Dry run, nothing changed. gitlab_issue create would:\nPOST ${h.server.url}/api/v4/projects/group%2Fproject/issues {"title":"From the agent"}`,
    );
    expect(result.data).toEqual({
      action: 'create',
      dry_run: true,
      requests: [{ method: 'POST', url: `${h.server.url}/api/v4/projects/group%2Fproject/issues`, body: { title: 'From the agent' } }],
      effects: [],
    });
    expect(h.confirmations).toEqual([]);
    expect(h.server.requests).toEqual([]);
  });

  it('validates before asking', async () => {
    h = await createHarness({ preset: 'trusted', confirm: true });
    const result = await h.call('gitlab_issue', { action: 'create', project: 'group/project' });
    expect(result.error).toBe('title parameter required for create action.');
    expect(h.confirmations).toEqual([]);
  });

  it('asks again for an artifact written outside the working directory', async () => {
    const outside = await testdir();
    try {
      h = await createHarness({ preset: 'trusted', confirm: true });
      const result = await h.call('gitlab_artifact', {
        action: 'download',
        project: 'group/project',
        job_id: 1,
        output_path: outside.join('a.zip'),
      });
      expect(result.error).toBe('');
      expect(h.confirmations.map((request) => request.action)).toEqual([
        "download on GitLab instance 'work' (project group/project)",
        `write outside the working directory: ${outside.join('a.zip')}`,
      ]);
    } finally {
      await outside.cleanup();
    }
  });
});

describe("the call's own confirm", () => {
  function recorder(answer: boolean): { asked: ConfirmationRequest[]; confirm: ConfirmFunction } {
    const asked: ConfirmationRequest[] = [];
    return {
      asked,
      confirm: (request) => {
        asked.push(request);
        return answer;
      },
    };
  }

  it('is asked instead of the confirm service', async () => {
    h = await createHarness({ preset: 'trusted', confirm: false });
    const { asked, confirm } = recorder(true);
    const result = await h.registry.execute('gitlab_issue', create, { confirm });
    expect(result.error).toBe('');
    expect(asked.map((request) => request.action)).toEqual(["create on GitLab instance 'work' (project group/project)"]);
    expect(h.confirmations).toEqual([]);
    expect(h.server.writes()).toHaveLength(1);
  });

  it('refuses for this call even where the confirm service would agree', async () => {
    h = await createHarness({ preset: 'trusted', confirm: true });
    const { asked, confirm } = recorder(false);
    const result = await h.call('gitlab_issue', create, { confirm });
    expect(result.kind).toBe('forbidden');
    expect(asked).toHaveLength(1);
    expect(h.confirmations).toEqual([]);
    expect(h.server.writes()).toEqual([]);
  });

  it('is asked about an artifact written outside the working directory too', async () => {
    await using outside = await testdir();
    h = await createHarness({ preset: 'trusted', confirm: false });
    const { asked, confirm } = recorder(true);
    const args = {
      action: 'download-file',
      project: 'group/project',
      job_id: 1,
      artifact_path: 'report.txt',
      output_path: outside.join('r.txt'),
    };
    const result = await h.call('gitlab_artifact', args, { confirm });
    expect(result.error).toBe('');
    expect(asked.map((request) => request.action)).toEqual([
      "download-file on GitLab instance 'work' (project group/project)",
      `write outside the working directory: ${outside.join('r.txt')}`,
    ]);
    expect(h.confirmations).toEqual([]);
    expect(await readFile(outside.join('r.txt'), 'utf8')).toBe('all tests passed\n');
  });

  it('is never asked at yolo', async () => {
    h = await createHarness({ preset: 'yolo' });
    const { asked, confirm } = recorder(false);
    expect((await h.call('gitlab_issue', create, { confirm })).success).toBe(true);
    expect(asked).toEqual([]);
  });
});

describe('yolo', () => {
  it('runs mutating actions without asking', async () => {
    h = await createHarness({ preset: 'yolo', confirm: false });
    expect((await h.call('gitlab_issue', create)).success).toBe(true);
    expect(h.confirmations).toEqual([]);
  });

  it('still refuses blocked paths for artifacts', async () => {
    const blocked = await testdir();
    try {
      h = await createHarness({ preset: 'yolo' });
      h.services.register('blockedPaths', [blocked.path]);
      const result = await h.call('gitlab_artifact', {
        action: 'download',
        project: 'group/project',
        job_id: 1,
        output_path: blocked.join('a.zip'),
      });
      expect(result.kind).toBe('forbidden');
      expect(await readdir(blocked.path)).toEqual([]);
    } finally {
      await blocked.cleanup();
    }
  });
});

describe('parameters', () => {
  it.each([
    [{ action: 'get', project: 'group/project' }, 'iid parameter required for get action.'],
    [{ action: 'comment', project: 'group/project', iid: 1 }, 'body parameter required for comment action.'],
    [{ action: 'create', project: 'group/project', title: '' }, 'title parameter required for create action.'],
    [{ action: 'update', project: 'group/project', iid: 1 }, 'No fields to update.'],
  ])('%j → %s, and nothing is sent', async (args, message) => {
    h = await createHarness();
    const result = await h.call('gitlab_issue', args);
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toBe(message);
    expect(h.server.requests.filter((request) => request.path !== '/users')).toEqual([]);
  });

  it('names unknown parameters, unknown actions and wrong types', async () => {
    h = await createHarness();
    expect((await h.call('gitlab_issue', { action: 'list', projet: 'x' })).error).toMatch(/Unknown parameter `projet`/);
    expect((await h.call('gitlab_issue', { action: 'destroy' })).error).toMatch(/Parameter `action` must be one of "list", "get"/);
    expect((await h.call('gitlab_issue', { action: 'get', iid: 'seven' })).error).toMatch(/Parameter `iid` must be an integer/);
    expect((await h.call('gitlab_time', { action: 'stats', iid: 1 })).error).toMatch(/Missing required parameter `target_type`/);
    expect(h.server.requests).toEqual([]);
  });

  it('reports an unknown action when called without the registry', async () => {
    h = await createHarness();
    const skill = h.registry.require('gitlab_issue');
    const result = await skill.execute({ action: 'destroy' });
    expect(result.error).toBe(
      'Unknown action: destroy. Expected one of: list, get, create, update, close, reopen, links, link, unlink, comment.',
    );
  });
});

describe('time limits', () => {
  it("the registry's time limit cuts a slow GitLab short", async () => {
    h = await createHarness();
    h.server.inject({ delayMs: 5_000 });
    const result = await h.registry.execute('gitlab_repo', { action: 'whoami', instance: 'work' }, { timeoutMs: 300 });
    expect(result.kind).toBe('timeout');
  });
});
