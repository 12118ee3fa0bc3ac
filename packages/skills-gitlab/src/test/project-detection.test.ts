import { createGitRepository, type GitLabStandIn, startGitLabStandIn } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness-fixture.js';

let h: Harness | undefined;
let extra: GitLabStandIn | undefined;
afterEach(async () => {
  await h?.close();
  await extra?.close();
  h = undefined;
  extra = undefined;
});

describe('project from the git remote', () => {
  it.each([
    ['scp-style SSH with nested groups', 'git@127.0.0.1:org/sub/project.git', 'org%2Fsub%2Fproject'],
    ['scp-style SSH with another user', 'deploy@127.0.0.1:org/project', 'org%2Fproject'],
    ['ssh:// with a port', 'ssh://git@127.0.0.1:2222/org/sub/project.git', 'org%2Fsub%2Fproject'],
    ['HTTP with credentials and the port', 'http://oauth2:glpat-in-remote@{host}/org/project.git', 'org%2Fproject'],
  ])('%s', async (_name, remote, encoded) => {
    h = await createHarness({ remote });
    const result = await h.call('gitlab_issue', { action: 'get', iid: 1 });
    expect(result.error).toBe('');
    expect(h.last().path).toBe(`/projects/${encoded}/issues/1`);
    expect(JSON.stringify(result)).not.toContain('glpat-in-remote');
  });

  it('"this" reads the remote; an omitted project on issue list means every project', async () => {
    h = await createHarness({ remote: 'git@127.0.0.1:org/project.git' });
    await h.call('gitlab_issue', { action: 'list', project: 'THIS' });
    expect(h.last().path).toBe('/projects/org%2Fproject/issues');
    await h.call('gitlab_issue', { action: 'list' });
    expect(h.last().path).toBe('/issues');
  });

  it('does not send a project from a remote on another host', async () => {
    h = await createHarness({ remote: 'git@github.com:org/project.git' });
    const result = await h.call('gitlab_pipeline', { action: 'list' });
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toBe(
      "No project specified and could not detect one: the origin remote is on github.com, not on GitLab instance 'work'. Pass `project`.",
    );
    expect(h.server.requests).toEqual([]);
  });

  it('says so when there is no remote', async () => {
    h = await createHarness();
    const result = await h.call('gitlab_job', { action: 'list' });
    expect(result.error).toMatch(/the working directory has no `origin` git remote/);
  });

  it('group-or-project skills do not guess', async () => {
    h = await createHarness({ remote: 'git@127.0.0.1:org/project.git' });
    const result = await h.call('gitlab_milestone', { action: 'list' });
    expect(result.error).toBe("Either 'project' or 'group' parameter is required.");
  });
});

describe('instance from the git remote', () => {
  it('picks the instance whose host and port serve the remote', async () => {
    h = await createHarness();
    extra = await startGitLabStandIn({ token: 'second-token' });
    h.services.register('gitlab', {
      instances: { work: { url: h.server.url, token: h.server.token }, second: { url: extra.url, token: extra.token } },
    });
    createGitRepository(h.dir.path, { files: {}, origin: `${extra.url}/team/app.git` });
    const result = await h.call('gitlab_repo', { action: 'get' });
    expect(result.error).toBe('');
    expect(extra.requests.map((request) => request.path)).toEqual(['/projects/team%2Fapp']);
    expect(h.server.requests).toEqual([]);
  });

  it('strips the path prefix of an instance served below a path', async () => {
    h = await createHarness();
    extra = await startGitLabStandIn({ apiRoot: '/gitlab/api/v4' });
    h.services.register('gitlab', { instances: { prefixed: { url: extra.url, token: extra.token } } });
    createGitRepository(h.dir.path, { files: {}, origin: `${extra.url}/team/app.git` });
    expect(extra.url).toMatch(/\/gitlab$/);
    const result = await h.call('gitlab_repo', { action: 'get' });
    expect(result.error).toBe('');
    expect(extra.requests.map((request) => request.path)).toEqual(['/projects/team%2Fapp']);
  });
});
