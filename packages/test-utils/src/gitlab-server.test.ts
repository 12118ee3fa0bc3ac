import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GitLabStandIn, startGitLabStandIn } from './gitlab-server.js';

let server: GitLabStandIn;
beforeAll(async () => {
  server = await startGitLabStandIn({ version: '17.9.0-ee' });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'private-token': server.token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

async function graphql(query: string, variables: object = {}, token = server.token): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
}

describe('the stand-in follows the documentation, not the skills', () => {
  it("answers an undocumented endpoint with GitLab's 404", async () => {
    for (const [method, path] of [
      ['GET', '/groups/g/iterations/1'],
      ['POST', '/groups/g/iterations'],
      ['GET', '/groups/g/iterations/cadences'],
      ['GET', '/projects/g%2Fp/nothing'],
    ] as const) {
      expect(await rest(method, path, method === 'POST' ? { title: 'x' } : undefined)).toEqual({
        status: 404,
        body: { message: '404 Not Found' },
      });
    }
  });

  it('refuses a missing required parameter the way Grape does', async () => {
    expect(await rest('POST', '/projects/g%2Fp/boards', {})).toEqual({ status: 400, body: { error: 'name is missing' } });
    expect(await rest('GET', '/projects/g%2Fp/repository/compare?from=main')).toEqual({ status: 400, body: { error: 'to is missing' } });
  });

  it('refuses a parameter the documentation does not list', async () => {
    const answer = await rest('POST', '/projects/g%2Fp/boards', { name: 'b', labels: 'x' });
    expect(answer).toEqual({
      status: 400,
      body: { error: 'labels is not a documented parameter of POST /projects/:project/boards (stand-in check)' },
    });
    expect((await rest('PUT', '/projects/g%2Fp/boards/1', { labels: 'x' })).status).toBe(200);
  });

  it('reports its version over REST and GraphQL', async () => {
    expect((await rest('GET', '/version')).body).toEqual({ version: '17.9.0-ee', revision: 'a1b2c3d4' });
    expect((await graphql('{ metadata { version } }')).body).toEqual({ data: { metadata: { version: '17.9.0-ee' } } });
  });
});

describe("paging as each endpoint's documentation says", () => {
  async function list(path: string): Promise<{ status: number; headers: Headers; body: any }> {
    const response = await fetch(`${server.url}/api/v4${path}`, { headers: { 'private-token': server.token } });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  it('answers the wiki list whole, ignoring page and per_page (wikis.md documents only with_content)', async () => {
    const answer = await list('/projects/g%2Fp/wikis?page=2&per_page=1');
    expect(answer.status).toBe(200);
    expect(answer.body.map((page: { slug: string }) => page.slug)).toEqual(['home', 'guides/setup']);
    expect(answer.headers.get('x-next-page')).toBeNull();
    expect(answer.headers.get('link')).toBeNull();
  });

  it('pages an offset list with X-Next-Page and Link', async () => {
    const answer = await list('/projects/g%2Fp/issues?page=1&per_page=1');
    expect(answer.body).toHaveLength(1);
    expect(answer.headers.get('x-next-page')).toBe('2');
    expect(answer.headers.get('link')).toMatch(/page=2&per_page=1>; rel="next"/);
  });

  it('pages a keyset list through Link alone, and wants a documented order', async () => {
    server.route('GET', '/users', () => ({ paginated: Array.from({ length: 3 }, (_, index) => ({ id: index + 1 })) }));
    const first = await list('/users?pagination=keyset&order_by=id&sort=asc&per_page=2');
    expect(first.body).toEqual([{ id: 1 }, { id: 2 }]);
    expect(first.headers.get('x-next-page')).toBeNull();
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? '';
    const second = await list(new URL(next).pathname.replace('/api/v4', '') + new URL(next).search);
    expect(second.body).toEqual([{ id: 3 }]);
    expect(second.headers.get('link')).toBeNull();
    expect((await list('/users?pagination=keyset&order_by=email&sort=asc')).status).toBe(405);
  });

  it("refuses keyset paging where GitLab has none, with GitLab's 405", async () => {
    const answer = await list('/projects/g%2Fp/labels?pagination=keyset');
    expect(answer).toMatchObject({ status: 405, body: { error: 'Keyset pagination is not yet available for this type of request' } });
  });
});

describe('GraphQL', () => {
  it('wants the token as a bearer token', async () => {
    expect(await graphql('{ metadata { version } }', {}, 'wrong')).toEqual({
      status: 401,
      body: { errors: [{ message: 'Invalid token' }] },
    });
  });

  it("validates against GitLab's names: a wrong field or input field is an error", async () => {
    const field = await graphql('{ group(fullPath: "g") { iterationCadence { nodes { id } } } }');
    expect(field.body.errors[0].message).toMatch(/Cannot query field "iterationCadence" on type "Group"/);
    const input = await graphql('mutation($input: IterationCadenceCreateInput!) { iterationCadenceCreate(input: $input) { errors } }', {
      input: { groupPath: 'g', title: 't', automatic: true },
    });
    expect(input.body.errors[0].message).toMatch(/"IterationCadenceCreateInput" to include required field "active"/);
  });

  it('records the operation, and counts only mutations as writes', async () => {
    await graphql('query($fullPath: ID!) { namespace(fullPath: $fullPath) { workItem(iid: "1") { title } } }', { fullPath: 'g' });
    await graphql('mutation($input: IterationDeleteInput!) { iterationDelete(input: $input) { errors } }', {
      input: { id: 'gid://gitlab/Iteration/1' },
    });
    expect(server.requests.map((request) => request.graphql?.fields)).toEqual([['namespace'], ['iterationDelete']]);
    expect(server.writes().map((request) => request.graphql?.operation)).toEqual(['mutation']);
  });
});
