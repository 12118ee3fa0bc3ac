// Each list follows its endpoint's documented paging (doc/api/rest/_index.md#pagination): offset pages
// followed through GitLab's headers, keyset pages through `Link`, and unpaged lists asked for once.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness-fixture.js';

const project = 'group/project';
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

const wikiPages = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ slug: `page-${index + 1}`, title: `Page ${index + 1}`, format: 'markdown' }));

describe('unpaged lists are asked for once, without page or per_page', () => {
  it('gitlab_wiki list of 150 pages: one request, 150 entries', async () => {
    h.server.route('GET', '/projects/:project/wikis', () => ({ paginated: wikiPages(150) }));
    const result = await h.call('gitlab_wiki', { action: 'list', project });
    expect(result.error).toBe('');
    expect(result.output).toMatch(/^Found 150 wiki pages:/);
    expect(result.output).toContain('page-150 — Page 150');
    expect(h.server.requests).toHaveLength(1);
    expect(h.last('GET').query).toEqual({});
  });

  it('gitlab_draft list of 150 drafts: one request', async () => {
    const drafts = Array.from({ length: 150 }, (_, index) => ({ id: index + 1, note: `draft ${index + 1}` }));
    h.server.route('GET', '/projects/:project/merge_requests/:iid/draft_notes', () => ({ paginated: drafts }));
    const result = await h.call('gitlab_draft', { action: 'list', project, iid: 1 });
    expect(result.error).toBe('');
    expect(h.server.requests).toHaveLength(1);
    expect(h.last('GET').query).toEqual({});
  });
});

describe('keyset lists', () => {
  it('the user look-up asks /users with keyset paging, as GitLab 16.5 and later want', async () => {
    const result = await h.call('gitlab_issue', { action: 'create', project, title: 'x', assignees: ['bob'] });
    expect(result.error).toBe('');
    const lookUp = h.server.requests.find((request) => request.path === '/users');
    expect(lookUp?.query).toMatchObject({ username: 'bob', pagination: 'keyset', order_by: 'id', sort: 'asc' });
    expect(lookUp?.query.page).toBeUndefined();
  });
});
