import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledError, type JsonObject, type JsonValue } from '@nexus/core';
import got, { type Response } from 'got';
import { firstPageQuery, nextPageQuery, pagingOf } from './endpoint-paging.js';
import { GitLabApiError } from './gitlab-api-error.js';
import { header, type ResponseHeaders } from './response-header.js';
import { parseRetryAfter } from './retry-after.js';
import { secretVariants } from './secret-mask.js';
import type { GitLabInstanceSettings, ResolvedGitLabSettings } from './settings.js';

/** HTTP methods the skills use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A query parameter value; `undefined` and `null` are left out, lists are joined with commas. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/** One request to GitLab: REST, relative to `{url}/api/v4`, or a GraphQL operation (see {@link graphqlRequest}). */
export interface GitLabRequest {
  method: HttpMethod;
  /** Path starting with `/`, every variable segment already encoded (`''` for GraphQL). */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON body of a POST or PUT; omitted when there are no fields. */
  body?: JsonObject;
  /** `graphql`: POST the body to `{url}/api/graphql` (token as `Authorization: Bearer`); default `rest`. */
  api?: 'rest' | 'graphql';
}

/** A GraphQL operation for {@link GitLabClient.graphql} and change plans: a POST of `{query, variables}` to `/api/graphql`. */
export function graphqlRequest(query: string, variables: JsonObject = {}): GitLabRequest {
  return { method: 'POST', path: '', api: 'graphql', body: { query, variables } };
}

/** Options of {@link GitLabClient.download}. */
export interface DownloadOptions {
  /** Largest body accepted, in bytes (default: the `maxDownloadBytes` setting). */
  maxBytes?: number;
  /**
   * Follow redirects (artifact downloads, which object storage serves elsewhere): up to
   * {@link MAX_REDIRECTS} hops, only to `https` targets, and without the token or any other credential.
   */
  followRedirects?: boolean;
}

/** The parts of a response the client hands back. */
interface RawResponse {
  status: number;
  headers: ResponseHeaders;
  body: Buffer;
}

const USER_AGENT = 'nexus-skills-gitlab';
const RATE_LIMIT_FALLBACK_MS = 5_000;
const MAX_PAGE_SIZE = 100;
const BACKOFF_FACTOR = 1.5;
/** Hops an artifact download may take to reach its storage. */
const MAX_REDIRECTS = 5;
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

function isSafeToRepeat(method: HttpMethod): boolean {
  return method === 'GET';
}

/**
 * A client for one configured GitLab instance, on `got`: `PRIVATE-TOKEN` authentication,
 * GitLab pagination, time limits, retries only where repeating is harmless, GraphQL at
 * `/api/graphql` (`Authorization: Bearer`), and errors as {@link GitLabApiError}s. Requests with
 * the token only ever go to the instance's own origin and never follow redirects; only artifact
 * downloads follow them, to `https` targets and without any credential.
 */
export class GitLabClient {
  /** Instance name. */
  readonly name: string;
  /** Instance settings. */
  readonly instance: GitLabInstanceSettings;
  /** `{url}/api/v4`. */
  readonly apiUrl: string;
  /** Scheme, host and port of the instance. */
  readonly origin: string;
  /** Client options shared by every instance. */
  readonly settings: ResolvedGitLabSettings;
  #token: Promise<string | undefined> | undefined;

  constructor(name: string, instance: GitLabInstanceSettings, settings: ResolvedGitLabSettings) {
    this.name = name;
    this.instance = instance;
    this.settings = settings;
    this.apiUrl = `${instance.url}/api/v4`;
    this.origin = new URL(instance.url).origin;
  }

  /** `host[:port]` of the instance, lower-cased. */
  get host(): string {
    return new URL(this.instance.url).host.toLowerCase();
  }

  /** The token, read once: `token`, else the `tokenEnv` variable, else the `tokenFile`. */
  token(): Promise<string | undefined> {
    this.#token ??= this.#readToken();
    return this.#token;
  }

  async #readToken(): Promise<string | undefined> {
    const { token, tokenEnv, tokenFile } = this.instance;
    if (token) return token;
    const fromEnv = tokenEnv ? process.env[tokenEnv]?.trim() : undefined;
    if (fromEnv) return fromEnv;
    if (!tokenFile) return undefined;
    const path = tokenFile.startsWith('~/') ? `${homedir()}${tokenFile.slice(1)}` : tokenFile;
    try {
      return (await readFile(path, 'utf8')).trim() || undefined;
    } catch (error) {
      throw new GitLabApiError(
        `Could not read the token file of GitLab instance '${this.name}' (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
        { status: 401 },
      );
    }
  }

  /** The spellings of the token that must never appear in output. */
  async secrets(): Promise<string[]> {
    return secretVariants(await this.token().catch(() => undefined));
  }

  /** The full URL of a request, as it would be sent. */
  urlFor(request: Pick<GitLabRequest, 'path' | 'query' | 'api'>): URL {
    if (request.api === 'graphql') return new URL(`${this.instance.url}/api/graphql`);
    const url = new URL(`${this.apiUrl}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    if (url.origin !== this.origin || !url.pathname.startsWith(new URL(this.apiUrl).pathname)) {
      throw new GitLabApiError(`Refusing a request outside GitLab instance '${this.name}'.`, { status: 0, kind: 'forbidden' });
    }
    return url;
  }

  /** Sends a request and returns its parsed JSON body (`undefined` for an empty body). */
  async request<T = JsonValue>(request: GitLabRequest, signal?: AbortSignal): Promise<T> {
    const response = await this.#withRetries(request.method, this.urlFor(request), request.body, signal, request.api);
    return this.#json(response) as T;
  }

  /**
   * Runs a GraphQL operation (a request made by {@link graphqlRequest}) and returns its `data`.
   * GraphQL reports most failures with status 200 and an `errors` list; those throw a
   * {@link GitLabApiError} carrying GitLab's messages.
   */
  async graphql<T = JsonObject>(request: GitLabRequest, signal?: AbortSignal): Promise<T> {
    const answer = (await this.request<{ data?: T | null; errors?: Array<{ message?: string }> }>(request, signal)) ?? {};
    const messages = (answer.errors ?? []).map((error) => error.message ?? JSON.stringify(error));
    if (messages.length > 0) {
      const notFound = messages.some((message) => /does not exist or you don't have permission/i.test(message));
      throw new GitLabApiError(`GitLab GraphQL error: ${messages.join('; ')}`, { status: notFound ? 404 : 0 });
    }
    if (!answer.data) throw new GitLabApiError('GitLab answered the GraphQL request without data.', { status: 0 });
    return answer.data;
  }

  /**
   * GETs up to `limit` items of a list, paged as its endpoint documents ({@link pagingOf}): an
   * unpaged list in one request without paging parameters, a paged one page by page as GitLab's
   * headers name the next, until `limit` items are collected or there is no next page.
   */
  async list<T = JsonObject>(path: string, query: Record<string, QueryValue> = {}, limit = 20, signal?: AbortSignal): Promise<T[]> {
    const paging = pagingOf(path);
    const items: T[] = [];
    let pageQuery = firstPageQuery(paging, query, Math.min(Math.max(limit, 1), MAX_PAGE_SIZE));
    for (;;) {
      const response = await this.#withRetries('GET', this.urlFor({ path, query: pageQuery }), undefined, signal, 'rest');
      const page = this.#json(response);
      if (!Array.isArray(page))
        throw new GitLabApiError(`GitLab answered ${path} with something other than a list.`, { status: response.status });
      items.push(...(page as T[]));
      const next = paging.kind === 'none' || page.length === 0 || items.length >= limit ? undefined : nextPageQuery(response.headers);
      if (!next) return items.slice(0, limit);
      pageQuery = { ...pageQuery, ...next };
    }
  }

  /**
   * GETs a binary body (an artifact archive, a job log) in one attempt, refusing bodies larger
   * than `maxBytes`. Error statuses throw a {@link GitLabApiError} carrying the status.
   */
  async download(request: Pick<GitLabRequest, 'path' | 'query'>, signal?: AbortSignal, options: DownloadOptions = {}): Promise<Buffer> {
    const { maxBytes = this.settings.maxDownloadBytes, followRedirects = false } = options;
    let response = await this.#attempt('GET', this.urlFor(request), undefined, signal, maxBytes);
    let from = this.urlFor(request);
    for (let hop = 0; followRedirects && isRedirect(response.status); hop++) {
      if (hop === MAX_REDIRECTS) {
        throw new GitLabApiError(`The download was redirected more than ${MAX_REDIRECTS} times.`, {
          status: response.status,
          recoverable: false,
        });
      }
      from = this.#redirectTarget(from, header(response.headers, 'location'));
      response = await this.#attempt('GET', from, undefined, signal, maxBytes, 'none');
    }
    this.#check(response);
    return response.body;
  }

  /** Where a download redirect points, if it may be followed: `https` only (plus `http` on loopback when the settings allow it for tests). */
  #redirectTarget(from: URL, location: string | undefined): URL {
    if (!location || !URL.canParse(location, from.href)) {
      throw new GitLabApiError('GitLab redirected the download without a usable Location.', { status: 0, recoverable: false });
    }
    const target = new URL(location, from);
    const loopbackForTests = this.settings.allowLoopbackHttpRedirects && target.protocol === 'http:' && LOOPBACK_HOSTS.has(target.hostname);
    if (target.protocol !== 'https:' && !loopbackForTests) {
      throw new GitLabApiError(
        `Refusing to follow the download redirect to ${target.protocol}//${target.host}: only https targets are followed.`,
        {
          status: 0,
          kind: 'forbidden',
          recoverable: false,
        },
      );
    }
    return target;
  }

  #json(response: RawResponse): JsonValue | undefined {
    this.#check(response);
    const text = response.body.toString('utf8');
    if (response.status === 204 || text.trim() === '') return undefined;
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      throw new GitLabApiError(`GitLab answered with something other than JSON (status ${response.status}).`, { status: response.status });
    }
  }

  #check(response: RawResponse): void {
    const { status } = response;
    if (isRedirect(status)) {
      const location = header(response.headers, 'location');
      const where = location
        ? ` to ${URL.canParse(location, this.origin) ? new URL(location, this.origin).origin : 'another address'}`
        : '';
      // Retrying cannot help: the instance URL in the settings needs fixing.
      throw new GitLabApiError(
        `GitLab API error ${status}: the server redirected${where}; redirects are not followed (check the instance URL).`,
        { status, recoverable: false },
      );
    }
    if (status >= 400) throw GitLabApiError.fromResponse(status, response.body.toString('utf8'));
  }

  async #withRetries(
    method: HttpMethod,
    url: URL,
    body: JsonObject | undefined,
    signal: AbortSignal | undefined,
    api: GitLabRequest['api'],
  ): Promise<RawResponse> {
    const { retries, retryDelayMs, maxRetryAfterSeconds } = this.settings;
    const credentials = api === 'graphql' ? 'bearer' : 'private-token';
    for (let attempt = 0; ; attempt++) {
      const backoff = retryDelayMs * BACKOFF_FACTOR ** attempt;
      let response: RawResponse;
      try {
        response = await this.#attempt(method, url, body, signal, undefined, credentials);
      } catch (error) {
        const canRetry = GitLabApiError.isInstance(error) && error.kind === 'timeout' && isSafeToRepeat(method) && attempt < retries;
        if (!canRetry) throw error;
        await this.#pause(backoff, signal);
        continue;
      }
      if (response.status === 429) {
        // A rate-limited request was refused before GitLab did anything, so any method may repeat.
        if (attempt >= retries)
          throw new GitLabApiError(`GitLab API error 429 (rate limited): still rate limited after ${retries} retries; try again later.`, {
            status: 429,
          });
        await this.#pause(
          parseRetryAfter(header(response.headers, 'retry-after'), RATE_LIMIT_FALLBACK_MS, maxRetryAfterSeconds * 1000),
          signal,
        );
        continue;
      }
      if (response.status >= 500 && isSafeToRepeat(method) && attempt < retries) {
        await this.#pause(backoff, signal);
        continue;
      }
      return response;
    }
  }

  async #pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await sleep(ms, undefined, signal ? { signal } : {});
    } catch {
      throw new CancelledError('The GitLab request was cancelled.');
    }
  }

  async #attempt(
    method: HttpMethod,
    url: URL,
    body: JsonObject | undefined,
    signal: AbortSignal | undefined,
    maxBytes?: number,
    credentials: 'private-token' | 'bearer' | 'none' = 'private-token',
  ): Promise<RawResponse> {
    if (signal?.aborted) throw new CancelledError('The GitLab request was cancelled.');
    const headers: Record<string, string> = { 'user-agent': USER_AGENT };
    if (credentials !== 'none') {
      const token = await this.token();
      if (!token) throw new GitLabApiError(`No GitLab token configured for instance '${this.name}'.`, { status: 401 });
      if (credentials === 'bearer') headers.authorization = `Bearer ${token}`;
      else headers['private-token'] = token;
      headers.accept = 'application/json';
    }
    // got 16 stops a request through its signal: the caller's, or ours once a download is too large.
    const tooLarge = new AbortController();
    const promise = got(url, {
      method,
      headers,
      ...(body === undefined ? {} : { json: body }),
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: this.settings.timeoutMs },
      responseType: 'buffer',
      signal: signal ? AbortSignal.any([signal, tooLarge.signal]) : tooLarge.signal,
    });
    if (maxBytes !== undefined) {
      promise.on('downloadProgress', ({ transferred, total }) => {
        if (transferred > maxBytes || (total ?? 0) > maxBytes) tooLarge.abort();
      });
    }
    let response: Response<Uint8Array>;
    try {
      response = await promise;
    } catch (error) {
      if (tooLarge.signal.aborted)
        throw new GitLabApiError(`The download is larger than the limit of ${maxBytes} bytes.`, { status: 0, recoverable: false });
      throw this.#transportError(error, signal);
    }
    const { buffer, byteOffset, byteLength } = response.body;
    return { status: response.statusCode, headers: response.headers, body: Buffer.from(buffer, byteOffset, byteLength) };
  }

  #transportError(error: unknown, signal: AbortSignal | undefined): Error {
    const { name, code } = (error ?? {}) as { name?: string; code?: string };
    if (signal?.aborted || name === 'AbortError') return new CancelledError('The GitLab request was cancelled.');
    if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
      return new GitLabApiError(`GitLab request timed out after ${this.settings.timeoutMs} ms.`, { status: 0, kind: 'timeout' });
    }
    // No `cause`: got's error carries the request options, token header included.
    return new GitLabApiError(`Request to GitLab instance '${this.name}' failed: ${code ?? name ?? 'error'}.`, { status: 0 });
  }
}
