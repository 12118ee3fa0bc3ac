import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerGraphQL, type GraphQLCall } from './gitlab-graphql.js';
import { defaultGitLabRoutes } from './gitlab-routes.js';

export { STAND_IN_USERS } from './gitlab-fixtures.js';
export { standInArtifactsZip } from './gitlab-routes.js';

/** A request the stand-in received. */
export interface RecordedRequest {
  method: string;
  /** Path below the API root, exactly as sent (still percent-encoded), e.g. `/projects/g%2Fp/issues`. */
  path: string;
  /** Query parameters (last value wins). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or `undefined` when there was none. */
  body: unknown;
  /** For a request to `/api/graphql` (recorded with `path` `/graphql`): its operation. */
  graphql?: GraphQLCall;
}

/** A canned answer. `body`: an object is sent as JSON, a string or bytes as they are. */
export interface StandInResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering (to provoke client time-outs). */
  delayMs?: number;
}

/** What a route handler receives. */
export interface RouteRequest extends RecordedRequest {
  /** Path parameters, percent-decoded (`:project` → `group/project`). */
  params: Record<string, string>;
}

/** A list the stand-in answers as GitLab pages its endpoint (see {@link ListPaging}). */
export interface PaginatedList {
  readonly paginated: readonly unknown[];
}

/**
 * How GitLab pages a list endpoint (doc/api/rest/_index.md#pagination): `offset` (the default:
 * `page`/`per_page`, `X-Next-Page` and `Link` headers), `none` (the whole list in one answer, paging
 * parameters ignored), or offset plus keyset (`pagination=keyset`: `Link: rel="next"` alone, with the
 * orderings the documentation allows and the parameter its next-page link carries).
 */
export type ListPaging = 'offset' | 'none' | { keyset: { orderBy?: readonly string[]; sort?: readonly string[]; cursor?: string } };

/** A route answers with a JSON value, a {@link PaginatedList}, or a full {@link StandInResponse}. */
export type RouteHandler = (request: RouteRequest) => unknown;

/**
 * The parameters GitLab documents for an endpoint (query and JSON body together, as GitLab reads
 * both). `page` and `per_page` are always accepted on GET.
 */
export interface ParamSpec {
  required?: readonly string[];
  optional?: readonly string[];
}

/** One route: `GET /projects/:project/issues/:iid`; `*rest` matches the remainder of the path. */
export interface StandInRoute {
  method: string;
  pattern: string;
  /** Documented parameters; a request with a missing required one or an undocumented one gets a 400. Unchecked when absent. */
  params?: ParamSpec;
  /** How a list it answers is paged (default `offset`). */
  paging?: ListPaging;
  handler: RouteHandler;
}

/** A response injected ahead of the routes, for matching requests. */
export interface Injection extends StandInResponse {
  method?: string;
  /** Exact path below the API root, or a pattern tested against it. */
  path?: string | RegExp;
  /** How many requests get it (default 1). */
  times?: number;
}

/** Options of {@link startGitLabStandIn}. */
export interface GitLabStandInOptions {
  /** The token requests must carry in `PRIVATE-TOKEN` (default `glpat-stand-in-token`). */
  token?: string;
  /** Path the API is served under (default `/api/v4`; e.g. `/gitlab/api/v4` for a prefixed instance). */
  apiRoot?: string;
  /** GitLab version reported by `GET /version` and GraphQL `metadata` (default `18.2.1-ee`). */
  version?: string;
}

/** A running stand-in GitLab. */
export interface GitLabStandIn {
  /** Instance URL to configure (`http://127.0.0.1:<port>`, plus any prefix before `/api/v4`). */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The token it accepts. */
  readonly token: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Requests that change something: REST requests other than GET, and GraphQL mutations. */
  writes(): RecordedRequest[];
  /** Answers the next matching request(s) with `injection` instead of the routes. */
  inject(injection: Injection): void;
  /** Adds a route that takes precedence over the built-in ones; a list it answers is paged as the built-in endpoint it covers. */
  route(method: string, pattern: string, handler: RouteHandler): void;
  /** Forgets recorded requests, injections and added routes. */
  reset(): void;
  close(): Promise<void>;
}

interface CompiledRoute {
  method: string;
  pattern: string;
  parts: string[];
  params: ParamSpec | undefined;
  paging: ListPaging;
  handler: RouteHandler;
}

const DEFAULT_TOKEN = 'glpat-stand-in-token';

function compile(route: StandInRoute): CompiledRoute {
  return {
    method: route.method.toUpperCase(),
    pattern: route.pattern,
    parts: route.pattern.split('/').slice(1),
    params: route.params,
    paging: route.paging ?? 'offset',
    handler: route.handler,
  };
}

const NOT_FOUND: StandInResponse = { status: 404, body: { message: '404 Not Found' } };
/** Paging parameters GitLab reads on every GET (and ignores where it does not page). */
const PAGINATION = ['page', 'per_page', 'pagination'];
const KEYSET_UNAVAILABLE: StandInResponse = {
  status: 405,
  body: { error: 'Keyset pagination is not yet available for this type of request' },
};

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * GitLab's answer to a request that breaks the documented parameters: `<name> is missing` (Grape's
 * wording) for a required one, and — the stand-in's own check, since GitLab silently drops them —
 * a 400 for a parameter the documentation does not list, so a misnamed parameter cannot pass.
 */
function checkParams(route: CompiledRoute, request: RecordedRequest, paging: ListPaging): StandInResponse | undefined {
  if (!route.params) return undefined;
  const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
  const given: Record<string, unknown> = { ...request.query, ...body };
  const { required = [], optional = [] } = route.params;
  const missing = required.find((name) => isMissing(given[name]));
  if (missing) return { status: 400, body: { error: `${missing} is missing` } };
  const keyset = typeof paging === 'object' ? ['order_by', 'sort', paging.keyset.cursor ?? 'cursor'] : [];
  const known = new Set([...required, ...optional, ...(route.method === 'GET' ? [...PAGINATION, ...keyset] : [])]);
  const unknown = Object.keys(given).find((name) => !known.has(name));
  if (unknown) {
    return {
      status: 400,
      body: { error: `${unknown} is not a documented parameter of ${route.method} ${route.pattern} (stand-in check)` },
    };
  }
  return undefined;
}

function match(route: CompiledRoute, method: string, path: string): Record<string, string> | undefined {
  if (route.method !== method) return undefined;
  const segments = path.split('/').slice(1);
  const params: Record<string, string> = {};
  for (let index = 0; index < route.parts.length; index++) {
    const part = route.parts[index] as string;
    if (part.startsWith('*')) {
      if (index >= segments.length) return undefined;
      params[part.slice(1)] = segments.slice(index).map(decodeURIComponent).join('/');
      return params;
    }
    const value = segments[index];
    if (value === undefined || value === '') return undefined;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return segments.length === route.parts.length ? params : undefined;
}

function isPaginated(value: unknown): value is PaginatedList {
  return typeof value === 'object' && value !== null && 'paginated' in value;
}

/** A handler's full response has a numeric `status` (GitLab objects carry status words). */
function isResponse(value: unknown): value is StandInResponse {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'number';
}

/**
 * A keyset request for a paged list that has no keyset paging, or in an ordering it does not offer,
 * gets GitLab's 405; an unpaged list ignores it.
 */
function checkKeyset(paging: ListPaging, request: RecordedRequest): StandInResponse | undefined {
  if (request.query.pagination !== 'keyset' || paging === 'none') return undefined;
  if (typeof paging !== 'object') return KEYSET_UNAVAILABLE;
  const { orderBy, sort = ['asc', 'desc'] } = paging.keyset;
  if (!orderBy) return undefined;
  const { order_by: order = '', sort: direction = '' } = request.query;
  return orderBy.includes(order) && sort.includes(direction) ? undefined : KEYSET_UNAVAILABLE;
}

type PageUrl = (query: Record<string, string>) => string;

function perPageOf(request: RecordedRequest): number {
  return Math.min(Number(request.query.per_page ?? 20) || 20, 100);
}

/** Offset paging: `page`/`per_page`, the `X-*` headers and `Link` first, last and next. */
function offsetPage(list: readonly unknown[], request: RecordedRequest, pageUrl: PageUrl): StandInResponse {
  const perPage = perPageOf(request);
  const page = Math.max(Number(request.query.page ?? 1) || 1, 1);
  const total = list.length;
  const totalPages = Math.max(Math.ceil(total / perPage), 1);
  const at = (number: number) => pageUrl({ ...request.query, page: String(number) });
  const next = page < totalPages ? page + 1 : undefined;
  const links = [`<${at(1)}>; rel="first"`, `<${at(totalPages)}>; rel="last"`];
  if (next) links.unshift(`<${at(next)}>; rel="next"`);
  return {
    status: 200,
    headers: {
      link: links.join(', '),
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': next ? String(next) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
      'x-total': String(total),
      'x-total-pages': String(totalPages),
    },
    body: list.slice((page - 1) * perPage, page * perPage),
  };
}

/** Keyset paging: only `Link: rel="next"`, whose cursor (here the next item's position) excludes what was sent. */
function keysetPage(list: readonly unknown[], request: RecordedRequest, cursor: string, pageUrl: PageUrl): StandInResponse {
  const start = Math.max(Number(request.query[cursor] ?? 0) || 0, 0);
  const end = start + perPageOf(request);
  const headers: Record<string, string> =
    end < list.length ? { link: `<${pageUrl({ ...request.query, [cursor]: String(end) })}>; rel="next"` } : {};
  return { status: 200, headers, body: list.slice(start, end) };
}

/** A list answered as its endpoint is paged. */
function answerList(list: readonly unknown[], paging: ListPaging, request: RecordedRequest, pageUrl: PageUrl): StandInResponse {
  if (paging === 'none') return { status: 200, body: list };
  if (typeof paging === 'object' && request.query.pagination === 'keyset')
    return keysetPage(list, request, paging.keyset.cursor ?? 'cursor', pageUrl);
  return offsetPage(list, request, pageUrl);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(response: ServerResponse, answer: StandInResponse, method: string): void {
  const { status = method === 'POST' ? 201 : 200, headers = {}, body } = answer;
  let payload: Buffer | undefined;
  const contentType: Record<string, string> = {};
  if (body instanceof Uint8Array) {
    payload = Buffer.from(body);
    contentType['content-type'] = 'application/octet-stream';
  } else if (typeof body === 'string') {
    payload = Buffer.from(body, 'utf8');
    contentType['content-type'] = 'text/plain; charset=utf-8';
  } else if (body !== undefined) {
    payload = Buffer.from(JSON.stringify(body), 'utf8');
    contentType['content-type'] = 'application/json';
  }
  response.writeHead(status, { ...contentType, ...headers });
  response.end(payload);
}

/**
 * Starts a stand-in for GitLab on 127.0.0.1 (a free port), written from GitLab's documentation
 * (`doc/api/*.md` and the GraphQL reference), not from the skills: it answers exactly the REST v4
 * endpoints it knows with the documented response shapes — anything else is GitLab's 404
 * `{"message":"404 Not Found"}` — refuses requests missing a documented required parameter or
 * carrying an undocumented one (400), pages each list as its endpoint is documented
 * ({@link ListPaging}), demands the `PRIVATE-TOKEN`, serves a GraphQL schema subset at
 * `/api/graphql` (bearer token; iterations, cadences, work items), records every request, and can
 * be told to fail, rate-limit, stall or redirect through {@link GitLabStandIn.inject}.
 */
export async function startGitLabStandIn(options: GitLabStandInOptions = {}): Promise<GitLabStandIn> {
  const { token = DEFAULT_TOKEN, apiRoot = '/api/v4', version = '18.2.1-ee' } = options;
  const requests: RecordedRequest[] = [];
  let injections: Array<Injection & { remaining: number }> = [];
  let extraRoutes: CompiledRoute[] = [];
  const builtIn = defaultGitLabRoutes({ version }).map(compile);
  const graphqlPath = `${apiRoot.replace(/\/v4$/, '')}/graphql`;
  let origin = '';

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = (incoming.method ?? 'GET').toUpperCase();
    const raw = incoming.url ?? '/';
    const queryStart = raw.indexOf('?');
    const fullPath = queryStart === -1 ? raw : raw.slice(0, queryStart);
    const query = Object.fromEntries(new URLSearchParams(queryStart === -1 ? '' : raw.slice(queryStart + 1)));
    const isGraphQL = fullPath === graphqlPath;
    const path = isGraphQL ? '/graphql' : fullPath.startsWith(`${apiRoot}/`) ? fullPath.slice(apiRoot.length) : fullPath;
    const recorded: RecordedRequest = { method, path, query, headers: incoming.headers, body: await readBody(incoming) };
    requests.push(recorded);

    const injection = injections.find(
      (candidate) =>
        candidate.remaining > 0 &&
        (!candidate.method || candidate.method.toUpperCase() === method) &&
        (candidate.path === undefined || (typeof candidate.path === 'string' ? candidate.path === path : candidate.path.test(path))),
    );
    let answer: StandInResponse;
    if (injection) {
      injection.remaining--;
      answer = injection;
    } else if (isGraphQL) {
      // GitLab's GraphQL endpoint takes the token as a bearer token.
      if (method !== 'POST') answer = NOT_FOUND;
      else if (incoming.headers.authorization !== `Bearer ${token}`)
        answer = { status: 401, body: { errors: [{ message: 'Invalid token' }] } };
      else {
        const { call, body } = await answerGraphQL(recorded.body, { version });
        if (call) recorded.graphql = call;
        answer = { status: 200, body };
      }
    } else if (!fullPath.startsWith(`${apiRoot}/`)) {
      answer = NOT_FOUND;
    } else if (incoming.headers['private-token'] !== token) {
      answer = { status: 401, body: { message: '401 Unauthorized' } };
    } else {
      answer = route(method, path, recorded);
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (!response.destroyed) send(response, answer, method);
  };

  /** The paging of the built-in endpoint at `path`: added routes answer lists as GitLab would there. */
  const pagingAt = (method: string, path: string, fallback: ListPaging): ListPaging =>
    builtIn.find((candidate) => match(candidate, method, path))?.paging ?? fallback;

  const route = (method: string, path: string, recorded: RecordedRequest): StandInResponse => {
    for (const candidate of [...extraRoutes, ...builtIn]) {
      const params = match(candidate, method, path);
      if (!params) continue;
      const paging = pagingAt(method, path, candidate.paging);
      const refused = checkParams(candidate, recorded, paging);
      if (refused) return refused;
      const result = candidate.handler({ ...recorded, params });
      if (isPaginated(result)) {
        return (
          checkKeyset(paging, recorded) ??
          answerList(result.paginated, paging, recorded, (query) => {
            const url = new URL(`${origin}${apiRoot}${path}`);
            for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
            return url.href;
          })
        );
      }
      if (isResponse(result)) return result;
      return result === undefined ? { status: 204 } : { body: result };
    }
    return NOT_FOUND;
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, { status: 500, body: { message: String(error) } }, 'GET');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}${apiRoot.replace(/\/api\/v4$/, '')}`,
    origin,
    token,
    requests,
    writes: () =>
      requests.filter((request) =>
        request.graphql ? request.graphql.operation === 'mutation' : request.method !== 'GET' && request.path !== '/graphql',
      ),
    inject(injection) {
      injections.push({ ...injection, remaining: injection.times ?? 1 });
    },
    route(method, pattern, handler) {
      extraRoutes.unshift(compile({ method, pattern, handler }));
    },
    reset() {
      requests.length = 0;
      injections = [];
      extraRoutes = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
