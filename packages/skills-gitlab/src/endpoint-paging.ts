import type { QueryValue } from './gitlab-client.js';
import { header, type ResponseHeaders } from './response-header.js';

/**
 * How a GitLab list endpoint pages its answer (doc/api/rest/_index.md#pagination):
 * - `offset`: `page`/`per_page`, the next page named by `X-Next-Page` or `Link: rel="next"`;
 * - `keyset`: `pagination=keyset` in one of the documented orderings, the next page only in `Link`;
 * - `none`: the whole list in one answer; paging parameters would be ignored.
 */
export type Paging = { kind: 'offset' } | { kind: 'keyset'; orderBy?: string; sort?: 'asc' | 'desc' } | { kind: 'none' };

const OFFSET: Paging = { kind: 'offset' };
const NONE: Paging = { kind: 'none' };

/**
 * The paging of every list endpoint whose paging is not GitLab's default offset paging, by path
 * template (`:name` stands for one segment). Audited against GitLab's API documentation; every
 * other endpoint the skills list (issues, merge requests and their diffs, commits and pipelines,
 * labels, branches, tags, releases, members, search, pipelines and their jobs and variables, jobs,
 * tree, milestones, boards and their lists, iterations, epics, discussions, approval rules,
 * variables, deploy keys and tokens, feature flags and user lists, projects) documents offset paging.
 * Tree, project jobs and projects offer keyset paging as well, which pays only past offset paging's
 * limit of tens of thousands of items, far beyond any list a skill asks for.
 */
const ENDPOINT_PAGING: ReadonlyArray<readonly [template: string, paging: Paging]> = [
  // wikis.md: "List wiki pages" takes only `with_content` and answers every page.
  ['/projects/:id/wikis', NONE],
  // draft_notes.md: the list takes only the ids and answers every draft (lib/api/draft_notes.rb pages nothing).
  ['/projects/:id/merge_requests/:iid/draft_notes', NONE],
  // rest/_index.md: offset paging is not available on /users from GitLab 16.5; keyset is, ordered by id.
  ['/users', { kind: 'keyset', orderBy: 'id', sort: 'asc' }],
];

function matches(template: string, path: string): boolean {
  const parts = template.split('/');
  const segments = path.split('/');
  return parts.length === segments.length && parts.every((part, index) => part.startsWith(':') || part === segments[index]);
}

/** The paging of the list endpoint at `path` (every variable segment already encoded). */
export function pagingOf(path: string): Paging {
  return ENDPOINT_PAGING.find(([template]) => matches(template, path))?.[1] ?? OFFSET;
}

/** The query of the first request for a list of at most `perPage` items a page. */
export function firstPageQuery(paging: Paging, query: Record<string, QueryValue>, perPage: number): Record<string, QueryValue> {
  switch (paging.kind) {
    case 'none':
      return query;
    case 'keyset':
      return { ...query, pagination: 'keyset', order_by: paging.orderBy, sort: paging.sort, per_page: perPage };
    case 'offset':
      return { ...query, per_page: perPage, page: 1 };
  }
}

/** Query parameters GitLab's `Link: <…>; rel="next"` header asks for (its origin and path are ignored). */
function nextFromLink(link: string | undefined): Record<string, string> | undefined {
  const match = link
    ?.split(',')
    .find((part) => /;\s*rel="?next"?/.test(part))
    ?.match(/<([^>]+)>/);
  if (!match?.[1] || !URL.canParse(match[1])) return undefined;
  return Object.fromEntries(new URL(match[1]).searchParams);
}

/**
 * What to change in the query to get the next page, as the answer's headers say (`X-Next-Page`,
 * else `Link: rel="next"`), or `undefined` on the last page. GitLab names the next page of every
 * paged answer, so an answer without these headers was the whole list: page numbers are never guessed.
 */
export function nextPageQuery(headers: ResponseHeaders): Record<string, string> | undefined {
  const nextPage = header(headers, 'x-next-page')?.trim();
  if (nextPage !== undefined) return nextPage === '' ? undefined : { page: nextPage };
  return nextFromLink(header(headers, 'link'));
}
