// The six places where the skills once agreed with the stand-in but not with GitLab's documentation
// (issue 16): each is tested here through registry.execute against the documentation-strict stand-in.

import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STAND_IN_USERS, standInArtifactsZip } from '@nexus/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness-fixture.js';

const project = 'group/project';
const group = 'group/team';
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('1. iterations: only the list is REST, everything else GraphQL', () => {
  it('no iteration action sends a REST request GitLab does not document', async () => {
    const calls: Array<Record<string, unknown>> = [
      { action: 'list' },
      { action: 'get', iteration_id: 52 },
      { action: 'create', title: 'S', start_date: '2024-08-01', due_date: '2024-08-14' },
      { action: 'update', iteration_id: 52, title: 'T' },
      { action: 'delete', iteration_id: 52 },
      { action: 'list-cadences' },
      { action: 'create-cadence', title: 'C', start_date: '2024-08-01', duration_in_weeks: 2 },
    ];
    for (const args of calls) expect((await h.call('gitlab_iteration', { ...args, group })).error).toBe('');
    const rest = h.server.requests.filter((request) => request.path !== '/graphql');
    expect(rest.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /groups/group%2Fteam/iterations']);
  });

  it('GraphQL gets the token as a bearer token, not PRIVATE-TOKEN', async () => {
    await h.call('gitlab_iteration', { action: 'get', group, iteration_id: 52 });
    const [request] = h.server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${h.server.token}`);
    expect(request?.headers['private-token']).toBeUndefined();
  });

  it("GitLab's refusal of a mutation (payload errors) fails the call with its words", async () => {
    h.server.inject({
      path: '/graphql',
      status: 200,
      body: { data: { iterationCadenceCreate: { iterationCadence: null, errors: ['Start date is in the past'] } } },
    });
    const result = await h.call('gitlab_iteration', {
      action: 'create-cadence',
      group,
      title: 'C',
      start_date: '2020-01-01',
      duration_in_weeks: 2,
    });
    expect(result.error).toBe('GitLab refused iterationCadenceCreate: Start date is in the past');
    expect(result.kind).toBe('invalid_input');
  });

  it('an unknown iteration is not_found', async () => {
    const result = await h.call('gitlab_iteration', { action: 'get', group, iteration_id: 0 });
    expect(result.kind).toBe('invalid_input');
    h.server.inject({ path: '/graphql', status: 200, body: { data: { iteration: null } } });
    const missing = await h.call('gitlab_iteration', { action: 'get', group, iteration_id: 99 });
    expect([missing.kind, missing.error]).toEqual(['not_found', 'Iteration 99 not found.']);
  });
});

describe('2. boards: created by name, scoped by a following update', () => {
  it('create without a name is refused before any request', async () => {
    const result = await h.call('gitlab_board', { action: 'create', project, labels: ['Doing'] });
    expect([result.kind, result.error]).toEqual(['invalid_input', 'name parameter required for create action.']);
    expect(h.server.requests).toEqual([]);
  });

  it('labels go in a PUT after the POST', async () => {
    const result = await h.call('gitlab_board', { action: 'create', project, name: 'Team', labels: ['Doing'] });
    expect(result.error).toBe('');
    expect(h.server.requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/projects/group%2Fproject/boards', { name: 'Team' }],
      ['PUT', '/projects/group%2Fproject/boards/3', { labels: 'Doing' }],
    ]);
  });

  it('a failed label scope says the board exists', async () => {
    h.server.inject({ method: 'PUT', path: '/projects/group%2Fproject/boards/3', status: 403, body: { message: '403 Forbidden' } });
    const result = await h.call('gitlab_board', { action: 'create', project, name: 'Team', labels: ['Doing'] });
    expect(result.error).toMatch(/^Created board #3 Team, but scoping it to labels \(Premium\) failed: GitLab API error 403/);
    expect(result.data).toMatchObject({ board: { id: 3 } });
  });
});

describe('3. artifacts: redirects to object storage are followed without credentials', () => {
  let storage: Server;
  let storageUrl: string;
  let seen: IncomingHttpHeaders[];
  let redirecting: Harness;
  // One archive for the whole test: a zip carries its entries' times, so two builds can differ.
  const archive = Buffer.from(standInArtifactsZip());

  beforeAll(async () => {
    storage = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/zip' });
      response.end(archive);
    });
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
    redirecting = await createHarness({ settings: { allowLoopbackHttpRedirects: true } });
  });
  afterAll(async () => {
    await redirecting.close();
    await new Promise<void>((resolve) => storage.close(() => resolve()));
  });
  beforeEach(() => {
    seen = [];
    redirecting.server.reset();
  });
  afterEach(() => redirecting.server.reset());

  const CREDENTIAL_HEADERS = ['private-token', 'authorization', 'cookie', 'job-token', 'proxy-authorization'];

  it('download follows the redirect and sends the storage no credential', async () => {
    redirecting.server.inject({
      path: '/projects/group%2Fproject/jobs/5/artifacts',
      status: 302,
      headers: { location: `${storageUrl}/bucket/artifacts.zip?X-Amz-Signature=abc`, 'set-cookie': '_gitlab_session=secret' },
    });
    const result = await redirecting.call('gitlab_artifact', { action: 'download', project, job_id: 5, output_path: 'a.zip' });
    expect(result.error).toBe('');
    expect(await readFile(redirecting.dir.join('a.zip'))).toEqual(archive);
    expect(seen).toHaveLength(1);
    for (const name of CREDENTIAL_HEADERS) expect(seen[0]).not.toHaveProperty(name);
    expect(JSON.stringify(seen[0])).not.toContain(redirecting.server.token);
  });

  it('browse follows it too', async () => {
    redirecting.server.inject({
      path: '/projects/group%2Fproject/jobs/5/artifacts',
      status: 307,
      headers: { location: `${storageUrl}/b` },
    });
    const result = await redirecting.call('gitlab_artifact', { action: 'browse', project, job_id: 5 });
    expect(result.output).toMatch(/3 files/);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toHaveProperty('private-token');
  });

  it('a redirect to plain http is refused where loopback http is not allowed (production)', async () => {
    h.server.inject({
      path: '/projects/group%2Fproject/jobs/5/artifacts',
      status: 302,
      headers: { location: `${storageUrl}/bucket/a.zip` },
    });
    const result = await h.call('gitlab_artifact', { action: 'download', project, job_id: 5, output_path: 'b.zip' });
    expect(result.kind).toBe('forbidden');
    expect(result.error).toBe(
      `Refusing to follow the download redirect to http://${new URL(storageUrl).host}: only https targets are followed.`,
    );
    expect(seen).toEqual([]);
  });

  it('even with loopback allowed, http elsewhere and endless redirects are refused', async () => {
    redirecting.server.inject({
      path: '/projects/group%2Fproject/jobs/5/artifacts',
      status: 302,
      headers: { location: 'http://example.com/a.zip' },
    });
    const elsewhere = await redirecting.call('gitlab_artifact', { action: 'download', project, job_id: 5, output_path: 'c.zip' });
    expect(elsewhere.error).toMatch(/only https targets are followed/);
    redirecting.server.reset();
    redirecting.server.inject({
      path: /\/jobs\/5\/artifacts$/,
      status: 302,
      headers: { location: '/api/v4/projects/group%2Fproject/jobs/5/artifacts' },
      times: 10,
    });
    const loop = await redirecting.call('gitlab_artifact', { action: 'download', project, job_id: 5, output_path: 'd.zip' });
    expect(loop.error).toBe('The download was redirected more than 5 times.');
    // Redirects back to GitLab itself are followed without the token as well.
    expect(redirecting.server.requests.slice(1).every((request) => request.headers['private-token'] === undefined)).toBe(true);
  });

  it('other requests still refuse redirects', async () => {
    redirecting.server.inject({ path: '/projects/group%2Fproject/jobs/5', status: 302, headers: { location: `${storageUrl}/x` } });
    const result = await redirecting.call('gitlab_job', { action: 'get', project, job_id: 5 });
    expect(result.error).toMatch(/redirects are not followed/);
    expect(seen).toEqual([]);
  });
});

describe('4. feature-flag user lists are addressed by iid', () => {
  it('lists show the iid (not the global id) and get/update/delete send it', async () => {
    const list = await h.call('gitlab_feature_flag', { action: 'list-user-lists', project });
    expect(list.output).toBe('Found 2 user lists:\nbeta-users-1 (list_iid 1, 3 users)\nbeta-users-2 (list_iid 2, 3 users)');
    expect(list.output).not.toMatch(/10[12]/);
    for (const action of ['get-user-list', 'update-user-list', 'delete-user-list']) {
      const result = await h.call('gitlab_feature_flag', { action, project, list_iid: 2, list_name: 'renamed' });
      expect(result.error).toBe('');
      expect(h.last().path).toBe('/projects/group%2Fproject/feature_flags_user_lists/2');
    }
  });
});

describe('5. epics: work items from GitLab 17.7, the REST API before', () => {
  it('asks the version once and uses GraphQL work items on 18.x', async () => {
    const local = await createHarness({ version: '18.1.0-ee' });
    try {
      await local.call('gitlab_epic', { action: 'get', group, iid: 1 });
      await local.call('gitlab_epic', { action: 'list', group });
      expect(local.server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'GET /version',
        'POST /graphql',
        'POST /graphql',
      ]);
    } finally {
      await local.close();
    }
  });

  it('uses the REST epics API on 17.6', async () => {
    const local = await createHarness({ version: '17.6.2-ee' });
    try {
      const get = await local.call('gitlab_epic', { action: 'get', group, iid: 2 });
      expect(get.output).toMatch(/# &2 Epic 2\nState: opened[\s\S]*API: REST epics API/);
      const created = await local.call('gitlab_epic', { action: 'create', group, title: 'Q3', start_date: '2024-07-01', parent_iid: 1 });
      expect(created.output).toMatch(/Created epic &8: Q3/);
      expect(local.last('POST').body).toEqual({ title: 'Q3', start_date_fixed: '2024-07-01', start_date_is_fixed: true, parent_id: 301 });
      const removed = await local.call('gitlab_epic', { action: 'remove-issue', group, iid: 2, issue_id: 1002 });
      expect(removed.error).toBe('');
      expect(local.last().path).toBe('/groups/group%2Fteam/epics/2/issues/72');
      expect(local.server.requests.filter((request) => request.path === '/graphql')).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('remove-issue needs the issue', async () => {
    const result = await h.call('gitlab_epic', { action: 'remove-issue', group, iid: 2 });
    expect([result.kind, result.error]).toEqual(['invalid_input', 'issue_id parameter required for remove-issue action.']);
  });

  it('an unknown label is named before anything is created', async () => {
    const result = await h.call('gitlab_epic', { action: 'create', group, title: 'x', labels: ['nope'] });
    expect([result.kind, result.error]).toEqual(['not_found', "Label 'nope' not found in group group/team."]);
    expect(h.server.writes()).toEqual([]);
  });
});

describe('6. issue creation: one assignee as assignee_id', () => {
  it('sends assignee_id for one assignee, assignee_ids (Premium) for several', async () => {
    await h.call('gitlab_issue', { action: 'create', project, title: 'x', assignees: ['me'] });
    expect(h.last('POST').body).toEqual({ title: 'x', assignee_id: STAND_IN_USERS.alice.id });
    await h.call('gitlab_issue', { action: 'create', project, title: 'x', assignees: ['bob', 'carol'] });
    expect(h.last('POST').body).toEqual({ title: 'x', assignee_ids: [STAND_IN_USERS.bob.id, STAND_IN_USERS.carol.id] });
  });
});
