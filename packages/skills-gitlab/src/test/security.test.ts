import { mkdir, readdir, symlink } from 'node:fs/promises';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { type GitLabStandIn, startGitLabStandIn, testdir } from '@nexus/test-utils';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gitlabSkills } from '../gitlab-family.js';
import { createHarness, type Harness } from './harness-fixture.js';

const TOKEN = 'glpat-Secret+Token/With=Signs';

let h: Harness;
let other: GitLabStandIn;
beforeAll(async () => {
  h = await createHarness({ token: TOKEN });
  other = await startGitLabStandIn({ token: TOKEN });
});
afterAll(async () => {
  await h.close();
  await other.close();
});
beforeEach(() => {
  h.server.reset();
  other.reset();
});

describe('the token stays with the configured instance', () => {
  it('a redirect to another host is not followed, so that host never receives the token', async () => {
    h.server.inject({ status: 302, headers: { location: `${other.url}/api/v4/projects/group%2Fproject/issues/1` } });
    const result = await h.call('gitlab_issue', { action: 'get', project: 'group/project', iid: 1 });
    expect(result.error).toContain('redirects are not followed');
    expect(other.requests).toEqual([]);
  });

  it('a 307 on a write is not replayed elsewhere either', async () => {
    h.server.inject({ method: 'POST', status: 307, headers: { location: `${other.url}/api/v4/projects/group%2Fproject/issues` } });
    const result = await h.call('gitlab_issue', { action: 'create', project: 'group/project', title: 'x' });
    expect(result.success).toBe(false);
    expect(other.requests).toEqual([]);
  });

  it('an error body echoing the token is masked, in plain and percent-encoded form', async () => {
    h.server.inject({ status: 401, body: { message: `token ${TOKEN} (${encodeURIComponent(TOKEN)}) is invalid` } });
    const result = await h.call('gitlab_issue', { action: 'get', project: 'group/project', iid: 1 });
    expect(result.kind).toBe('forbidden');
    expect(result.error).toBe(
      'GitLab API error 401 (unauthorized: the token is missing, invalid or expired): token **** (****) is invalid',
    );
  });

  it('a token in a successful answer is masked in the output and the data', async () => {
    h.server.route('GET', '/projects/:project/issues/:iid', () => ({
      iid: 1,
      title: `leak ${TOKEN}`,
      state: 'opened',
      description: TOKEN,
    }));
    const result = await h.call('gitlab_issue', { action: 'get', project: 'group/project', iid: 1 });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(result.output).toContain('leak ****');
  });

  it('runners_token never leaves the skill', async () => {
    const result = await h.call('gitlab_repo', { action: 'get', project: 'group/project' });
    expect(JSON.stringify(result)).not.toContain('runners-secret');
    expect(result.data).toMatchObject({ action: 'get', result: { runners_token: '****' } });
  });

  it('the LLM can name an instance but never supply a URL', async () => {
    for (const instance of [other.url, 'https://evil.example']) {
      const result = await h.call('gitlab_repo', { action: 'whoami', instance });
      expect(result.kind).toBe('invalid_input');
      expect(result.error).toBe(`GitLab instance '${instance}' not configured; configured instances: work.`);
    }
    expect(h.server.requests).toEqual([]);
    expect(other.requests).toEqual([]);
  });
});

describe('project and names cannot steer the request elsewhere', () => {
  it.each([
    '../../users',
    'group/../../users',
    '..',
    'https://evil.example/group/project',
    'http://127.0.0.1:1/group/project',
    'git@evil.example:group/project.git',
  ])('project %j is refused before any request', async (project) => {
    const result = await h.call('gitlab_issue', { action: 'list', project });
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toMatch(/Expected `project` to be a path like "group\/name" or a numeric id/);
    expect(h.server.requests).toEqual([]);
  });

  it('encoded dots stay one literal segment below /projects', async () => {
    await h.call('gitlab_issue', { action: 'list', project: '%2e%2e/users' });
    expect(h.last().path).toBe('/projects/%252e%252e%2Fusers/issues');
  });

  it('branch, label and variable names are single encoded segments', async () => {
    await h.call('gitlab_branch', { action: 'get', project: 'group/project', name: '../../../../users' });
    expect(h.last().path).toBe('/projects/group%2Fproject/repository/branches/..%2F..%2F..%2F..%2Fusers');
    const dots = await h.call('gitlab_label', { action: 'delete', project: 'group/project', name: '..' });
    expect(dots.kind).toBe('invalid_input');
    expect(h.server.writes()).toEqual([]);
  });

  it('an artifact path cannot climb out of the job', async () => {
    const result = await h.call('gitlab_artifact', {
      action: 'download-file',
      project: 'group/project',
      job_id: 1,
      artifact_path: '../../../secrets',
      output_path: 'x',
    });
    expect(result.error).toMatch(/Expected `artifact_path` to be a relative path/);
    expect(h.server.requests).toEqual([]);
  });
});

describe('permissions', () => {
  it('sandboxed agents see no GitLab tool and cannot run one', async () => {
    await using dir = await testdir();
    const { registry } = createTestAgent({
      cwd: dir.path,
      preset: 'sandboxed',
      families: [gitlabSkills],
      services: { gitlab: { instances: { work: { url: h.server.url, token: TOKEN } } } },
    });
    expect(registry.getDefinitionsForPermissions(resolvePreset('sandboxed', { cwd: dir.path }))).toEqual([]);
    expect(registry.getDefinitionsForPermissions(resolvePreset('trusted', { cwd: dir.path }))).toHaveLength(24);
    const result = await registry.execute('gitlab_repo', { action: 'whoami' });
    expect(result.kind).toBe('forbidden');
    expect(h.server.requests).toEqual([]);
  });

  it('a skill built without a permission policy refuses to run (defence behind the registry)', async () => {
    const services = new ServiceContainer().register('gitlab', { instances: { work: { url: h.server.url, token: TOKEN } } });
    const spec = gitlabSkills.skills.find((skill) => skill.name === 'gitlab_repo');
    const result = await spec!.factory(services).execute({ action: 'whoami' });
    expect(result.kind).toBe('forbidden');
    expect(result.error).toMatch(
      /^Tool "gitlab_repo" needs the "trusted" permission level or higher; no permission policy is registered, which counts as "sandboxed"/,
    );
    expect(h.server.requests).toEqual([]);
  });
});

describe('artifact files', () => {
  afterEach(() => h.server.reset());

  function serveZip(entries: Record<string, string>): void {
    const zip = zipSync(Object.fromEntries(Object.entries(entries).map(([name, text]) => [name, new TextEncoder().encode(text)])));
    h.server.route('GET', '/projects/:project/jobs/:id/artifacts', () => ({ status: 200, body: zip }));
  }

  it.each([['../escape.txt'], ['nested/../../escape.txt'], ['/tmp/nexus-zip-slip.txt'], ['..\\escape.txt'], ['C:/escape.txt']])(
    'an archive entry %j is refused and nothing is extracted',
    async (name) => {
      serveZip({ 'fine.txt': 'ok', [name]: 'evil' });
      const result = await h.call('gitlab_artifact', {
        action: 'download',
        project: 'group/project',
        job_id: 1,
        output_path: 'slip',
        extract: true,
      });
      expect(result.success).toBe(false);
      expect(result.error).toMatch(/would land outside the target directory; nothing was extracted/);
      expect(await readdir(h.dir.path)).not.toContain('escape.txt');
      expect(await readdir(h.dir.path)).not.toContain('slip');
    },
  );

  it('a symlink planted in the target directory cannot redirect a write', async () => {
    const outside = await testdir();
    try {
      serveZip({ 'link/owned.txt': 'evil' });
      const target = h.dir.join('planted');
      await mkdir(target);
      await symlink(outside.path, `${target}/link`);
      const result = await h.call('gitlab_artifact', {
        action: 'download',
        project: 'group/project',
        job_id: 1,
        output_path: 'planted',
        extract: true,
      });
      expect(result.kind).toBe('forbidden');
      expect(result.error).toMatch(/nothing was extracted/);
      expect(await readdir(outside.path)).toEqual([]);
    } finally {
      await outside.cleanup();
    }
  });
});
