import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A list the stand-in paginates with GitLab's `page`/`per_page` and headers. */
export interface PaginatedList {
  readonly paginated: readonly unknown[];
  /** Paginate like GitLab's keyset mode: only a `Link: rel="next"` header, no `X-Next-Page`. */
  readonly linkOnly?: boolean;
}

/** A route answers with a JSON value, a {@link PaginatedList}, or a full {@link StandInResponse}. */
export type RouteHandler = (request: RouteRequest) => unknown;

/** One route: `GET /projects/:project/issues/:iid`; `*rest` matches the remainder of the path. */
export interface StandInRoute {
  method: string;
  pattern: string;
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
  /** Requests other than GET (what a change sent). */
  writes(): RecordedRequest[];
  /** Answers the next matching request(s) with `injection` instead of the routes. */
  inject(injection: Injection): void;
  /** Adds a route that takes precedence over the built-in ones. */
  route(method: string, pattern: string, handler: RouteHandler): void;
  /** Forgets recorded requests, injections and added routes. */
  reset(): void;
  close(): Promise<void>;
}

interface CompiledRoute {
  method: string;
  parts: string[];
  handler: RouteHandler;
}

const DEFAULT_TOKEN = 'glpat-stand-in-token';

function compile(route: StandInRoute): CompiledRoute {
  return { method: route.method.toUpperCase(), parts: route.pattern.split('/').slice(1), handler: route.handler };
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

function paginate(list: PaginatedList, request: RecordedRequest, pageUrl: (page: number) => string): StandInResponse {
  const perPage = Math.min(Number(request.query.per_page ?? 20) || 20, 100);
  const page = Math.max(Number(request.query.page ?? 1) || 1, 1);
  const total = list.paginated.length;
  const totalPages = Math.max(Math.ceil(total / perPage), 1);
  const items = list.paginated.slice((page - 1) * perPage, page * perPage);
  const next = page < totalPages ? page + 1 : undefined;
  const links = [`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(totalPages)}>; rel="last"`];
  if (next) links.unshift(`<${pageUrl(next)}>; rel="next"`);
  const headers: Record<string, string> = { link: links.join(', ') };
  if (!list.linkOnly) {
    Object.assign(headers, {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': next ? String(next) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
      'x-total': String(total),
      'x-total-pages': String(totalPages),
    });
  }
  return { status: 200, headers, body: items };
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
 * Starts a stand-in for the GitLab REST API v4 on 127.0.0.1 (a free port): it answers the
 * endpoints `@nexus/skills-gitlab` uses with GitLab's documented response shapes, paginates with
 * GitLab's headers, demands the `PRIVATE-TOKEN`, records every request, and can be told to fail,
 * rate-limit, stall or redirect through {@link GitLabStandIn.inject}.
 */
export async function startGitLabStandIn(options: GitLabStandInOptions = {}): Promise<GitLabStandIn> {
  const { token = DEFAULT_TOKEN, apiRoot = '/api/v4' } = options;
  const requests: RecordedRequest[] = [];
  let injections: Array<Injection & { remaining: number }> = [];
  let extraRoutes: CompiledRoute[] = [];
  const builtIn = defaultGitLabRoutes().map(compile);
  let origin = '';

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = (incoming.method ?? 'GET').toUpperCase();
    const raw = incoming.url ?? '/';
    const queryStart = raw.indexOf('?');
    const fullPath = queryStart === -1 ? raw : raw.slice(0, queryStart);
    const query = Object.fromEntries(new URLSearchParams(queryStart === -1 ? '' : raw.slice(queryStart + 1)));
    const path = fullPath.startsWith(`${apiRoot}/`) ? fullPath.slice(apiRoot.length) : fullPath;
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
    } else if (!fullPath.startsWith(`${apiRoot}/`)) {
      answer = { status: 404, body: { error: '404 Not Found' } };
    } else if (incoming.headers['private-token'] !== token) {
      answer = { status: 401, body: { message: '401 Unauthorized' } };
    } else {
      answer = route(method, path, recorded);
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (!response.destroyed) send(response, answer, method);
  };

  const route = (method: string, path: string, recorded: RecordedRequest): StandInResponse => {
    for (const candidate of [...extraRoutes, ...builtIn]) {
      const params = match(candidate, method, path);
      if (!params) continue;
      const result = candidate.handler({ ...recorded, params });
      if (isPaginated(result)) {
        return paginate(result, recorded, (page) => {
          const url = new URL(`${origin}${apiRoot}${path}`);
          for (const [key, value] of Object.entries({ ...recorded.query, page: String(page) })) url.searchParams.set(key, value);
          return url.href;
        });
      }
      if (isResponse(result)) return result;
      return result === undefined ? { status: 204 } : { body: result };
    }
    return { status: 404, body: { error: '404 Not Found' } };
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
    writes: () => requests.filter((request) => request.method !== 'GET'),
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
