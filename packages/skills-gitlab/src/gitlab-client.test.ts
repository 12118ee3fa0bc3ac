import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { type GitLabStandIn, startGitLabStandIn, testdir } from '@nexus/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitLabApiError } from './gitlab-api-error.js';
import { GitLabClient } from './gitlab-client.js';
import { type GitLabInstanceSettings, type GitLabSettings, parseGitLabSettings } from './settings.js';

let server: GitLabStandIn;
let other: GitLabStandIn;

function client(instance: Partial<GitLabInstanceSettings> = {}, settings: Partial<GitLabSettings> = {}): GitLabClient {
  const resolved = parseGitLabSettings({
    instances: { work: { url: server.url, token: server.token, ...instance } },
    retryDelayMs: 1,
    ...settings,
  });
  return new GitLabClient('work', resolved.instances.work as GitLabInstanceSettings, resolved);
}

async function failure(promise: Promise<unknown>): Promise<GitLabApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GitLabApiError);
  return error as GitLabApiError;
}

const items = (count: number) => Array.from({ length: count }, (_, index) => ({ id: index + 1 }));

beforeAll(async () => {
  server = await startGitLabStandIn();
  other = await startGitLabStandIn({ token: 'other-token' });
});
afterAll(async () => {
  await server.close();
  await other.close();
});
beforeEach(() => {
  server.reset();
  other.reset();
});

describe('requests', () => {
  it('sends the token in PRIVATE-TOKEN to /api/v4 and JSON bodies on writes', async () => {
    const created = await client().request<{ title: string }>({ method: 'POST', path: '/projects/g%2Fp/issues', body: { title: 'x' } });
    expect(created.title).toBe('x');
    const [request] = server.requests;
    expect(request?.headers['private-token']).toBe(server.token);
    expect(request?.headers['content-type']).toContain('application/json');
    expect(request?.body).toEqual({ title: 'x' });
  });

  it('joins list query values with commas and leaves out undefined ones', async () => {
    await client().request({
      method: 'GET',
      path: '/projects/g%2Fp/issues',
      query: { labels: ['a', 'b'], state: undefined, confidential: false },
    });
    expect(server.requests[0]?.query).toEqual({ labels: 'a,b', confidential: 'false' });
  });

  it('returns undefined for 204 No Content', async () => {
    expect(await client().request({ method: 'DELETE', path: '/projects/g%2Fp/labels/bug' })).toBeUndefined();
  });

  it('refuses a path that would climb out of the API root', () => {
    expect(() => client().urlFor({ path: '/../../../admin' })).toThrow(/outside GitLab instance/);
  });

  it('reads the token from the environment variable, then from the token file', async () => {
    const dir = await testdir({ token: `${server.token}\n` });
    try {
      const variable = 'NEXUS_TEST_GITLAB_TOKEN_CLIENT';
      process.env[variable] = server.token;
      await client({ token: undefined, tokenEnv: variable }).request({ method: 'GET', path: '/user' });
      delete process.env[variable];
      await client({ token: undefined, tokenEnv: variable, tokenFile: dir.join('token') }).request({ method: 'GET', path: '/user' });
      expect(server.requests.map((request) => request.headers['private-token'])).toEqual([server.token, server.token]);
    } finally {
      await dir.cleanup();
    }
  });

  it('fails with 401 and sends nothing when no token can be found', async () => {
    const error = await failure(
      client({ token: undefined, tokenEnv: 'NEXUS_TEST_UNSET_VARIABLE' }).request({ method: 'GET', path: '/user' }),
    );
    expect(error.status).toBe(401);
    expect(error.kind).toBe('forbidden');
    expect(error.message).toBe("No GitLab token configured for instance 'work'.");
    expect(server.requests).toEqual([]);
  });

  it('reports an unreadable token file without its contents', async () => {
    const dir = await testdir();
    await writeFile(dir.join('unused'), 'x');
    const error = await failure(
      client({ token: undefined, tokenFile: dir.join('missing-token') }).request({ method: 'GET', path: '/user' }),
    );
    expect(error.message).toMatch(/Could not read the token file of GitLab instance 'work' \(ENOENT\)/);
    await dir.cleanup();
  });
});

describe('pagination', () => {
  it('stops at the limit: 150 of 200 items in two requests of 100', async () => {
    server.route('GET', '/projects/:project/issues', () => ({ paginated: items(200) }));
    const result = await client().list('/projects/g%2Fp/issues', {}, 150);
    expect(result).toHaveLength(150);
    expect(server.requests.map((request) => [request.query.page, request.query.per_page])).toEqual([
      ['1', '100'],
      ['2', '100'],
    ]);
  });

  it('asks for no more than it needs: limit 5 is one request of 5', async () => {
    server.route('GET', '/projects/:project/issues', () => ({ paginated: items(200) }));
    expect(await client().list('/projects/g%2Fp/issues', {}, 5)).toHaveLength(5);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.query.per_page).toBe('5');
  });

  it('stops when X-Next-Page is empty, even on a full page', async () => {
    server.route('GET', '/projects/:project/issues', () => ({ paginated: items(40) }));
    expect(await client().list('/projects/g%2Fp/issues', {}, 100)).toHaveLength(40);
    expect(server.requests).toHaveLength(1);
  });

  it('follows Link rel="next" when there is no X-Next-Page, keeping its own origin', async () => {
    server.route('GET', '/projects/:project/issues', (request) =>
      request.query.cursor === 'abc'
        ? { status: 200, body: items(3) }
        : {
            status: 200,
            headers: { link: `<${other.url}/api/v4/projects/g%2Fp/issues?cursor=abc&per_page=3>; rel="next"` },
            body: items(3),
          },
    );
    expect(await client().list('/projects/g%2Fp/issues', {}, 10)).toHaveLength(6);
    expect(server.requests.map((request) => request.query.cursor)).toEqual([undefined, 'abc']);
    expect(other.requests).toEqual([]);
  });

  it('without pagination headers the answer is the whole list, even a full page: no page numbers of its own', async () => {
    server.route('GET', '/projects/:project/issues', () => ({ status: 200, body: items(100) }));
    expect(await client().list('/projects/g%2Fp/issues', {}, 500)).toHaveLength(100);
    expect(server.requests).toHaveLength(1);
  });

  it('pages a keyset endpoint through Link only: /users ordered by id', async () => {
    const users = Array.from({ length: 150 }, (_, index) => ({ id: index + 1, username: `user${index + 1}` }));
    server.route('GET', '/users', () => ({ paginated: users }));
    expect(await client().list('/users', {}, 150)).toHaveLength(150);
    const [first, second] = server.requests;
    expect(first?.query).toEqual({ pagination: 'keyset', order_by: 'id', sort: 'asc', per_page: '100' });
    expect(second?.query).toMatchObject({ pagination: 'keyset', order_by: 'id', sort: 'asc', per_page: '100' });
    expect(second?.query.cursor).toBeDefined();
    expect(server.requests).toHaveLength(2);
  });

  it('asks an unpaged endpoint once, without page or per_page, and keeps at most limit items', async () => {
    server.route('GET', '/projects/:project/wikis', () => ({ paginated: items(150) }));
    expect(await client().list('/projects/g%2Fp/wikis', {}, 120)).toHaveLength(120);
    expect(server.requests.map((request) => request.query)).toEqual([{}]);
  });
});

describe('retries', () => {
  it('waits out a 429 with Retry-After in seconds, then succeeds', async () => {
    server.inject({ status: 429, headers: { 'retry-after': '0' }, body: { message: 'Too many requests' } });
    expect(await client().request({ method: 'GET', path: '/user' })).toMatchObject({ username: 'alice' });
    expect(server.requests).toHaveLength(2);
  });

  it('understands Retry-After as an HTTP date', async () => {
    server.inject({ status: 429, headers: { 'retry-after': new Date(Date.now() - 1000).toUTCString() } });
    await client().request({ method: 'GET', path: '/user' });
    expect(server.requests).toHaveLength(2);
  });

  it('repeats a rate-limited POST: GitLab refused it before doing anything', async () => {
    server.inject({ status: 429, headers: { 'retry-after': '0' } });
    await client().request({ method: 'POST', path: '/projects/g%2Fp/issues', body: { title: 'x' } });
    expect(server.writes()).toHaveLength(2);
  });

  it('gives up on 429 after the configured retries', async () => {
    server.inject({ status: 429, headers: { 'retry-after': '0' }, times: 10 });
    const error = await failure(client({}, { retries: 2 }).request({ method: 'GET', path: '/user' }));
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/still rate limited after 2 retries/);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a GET after 5xx with back-off', async () => {
    server.inject({ status: 502, times: 2, body: 'Bad gateway' });
    await client().request({ method: 'GET', path: '/user' });
    expect(server.requests).toHaveLength(3);
  });

  it('never repeats a POST after 5xx: it may have created something', async () => {
    server.inject({ method: 'POST', status: 500, body: { message: 'Internal Server Error' } });
    const error = await failure(client().request({ method: 'POST', path: '/projects/g%2Fp/pipeline', body: { ref: 'main' } }));
    expect(error.status).toBe(500);
    expect(error.message).toBe('GitLab API error 500 (GitLab server error; try again later): Internal Server Error');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a GET that timed out, then reports a timeout', async () => {
    server.inject({ delayMs: 1_000, times: 3 });
    const error = await failure(client({}, { timeoutMs: 100, retries: 2 }).request({ method: 'GET', path: '/user' }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('GitLab request timed out after 100 ms.');
    expect(server.requests).toHaveLength(3);
  });

  it('does not repeat a POST that timed out', async () => {
    server.inject({ delayMs: 1_000 });
    const error = await failure(
      client({}, { timeoutMs: 100 }).request({ method: 'POST', path: '/projects/g%2Fp/issues', body: { title: 'x' } }),
    );
    expect(error.kind).toBe('timeout');
    expect(server.requests).toHaveLength(1);
  });

  it('stops waiting when the signal aborts, during a request or a back-off', async () => {
    server.inject({ delayMs: 2_000 });
    const during = new AbortController();
    setTimeout(() => during.abort(), 50);
    await expect(client().request({ method: 'GET', path: '/user' }, during.signal)).rejects.toMatchObject({ kind: 'cancelled' });
    server.inject({ status: 429, headers: { 'retry-after': '30' } });
    const backOff = new AbortController();
    setTimeout(() => backOff.abort(), 50);
    await expect(client().request({ method: 'GET', path: '/user' }, backOff.signal)).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('does not retry a refused connection and names no token', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const resolved = parseGitLabSettings({
      instances: { down: { url: `http://127.0.0.1:${port}`, token: 'glpat-never-shown' } },
      retryDelayMs: 1,
    });
    const error = await failure(
      new GitLabClient('down', resolved.instances.down as GitLabInstanceSettings, resolved).request({ method: 'GET', path: '/user' }),
    );
    expect(error.status).toBe(0);
    expect(error.message).toBe("Request to GitLab instance 'down' failed: ECONNREFUSED.");
  });
});

describe('errors and redirects', () => {
  it.each([
    [401, 'forbidden', 'unauthorized'],
    [403, 'forbidden', 'forbidden'],
    [404, 'not_found', 'not found'],
    [409, 'execution_failed', 'conflict'],
    [422, 'invalid_input', 'unprocessable'],
  ] as const)('maps %i to %s with one line', async (status, kind, words) => {
    server.inject({ status, body: { message: `line one\nline two ${status}` } });
    const error = await failure(client().request({ method: 'GET', path: '/user' }));
    expect(error.status).toBe(status);
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(`GitLab API error ${status} (${words}`);
    expect(error.message).toContain(`line one line two ${status}`);
    expect(error.message).not.toContain('\n');
  });

  it('serialises field errors GitLab sends as an object', async () => {
    server.inject({ status: 400, body: { message: { title: ["can't be blank"] } } });
    expect((await failure(client().request({ method: 'GET', path: '/user' }))).message).toContain('{"title":["can\'t be blank"]}');
  });

  it('does not follow a redirect, so the other host never sees the token', async () => {
    server.inject({ status: 302, headers: { location: `${other.url}/api/v4/user` } });
    const error = await failure(client().request({ method: 'GET', path: '/user' }));
    expect(error.message).toBe(
      `GitLab API error 302: the server redirected to ${other.origin}; redirects are not followed (check the instance URL).`,
    );
    expect(other.requests).toEqual([]);
  });

  it('refuses downloads larger than the limit', async () => {
    server.route('GET', '/projects/:project/jobs/:id/trace', () => ({ status: 200, body: 'x'.repeat(200_000) }));
    const error = await failure(client().download({ path: '/projects/g%2Fp/jobs/1/trace' }, undefined, { maxBytes: 1_000 }));
    expect(error.message).toBe('The download is larger than the limit of 1000 bytes.');
  });
});
