import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, isJSONRPCNotification, isJSONRPCRequest } from '@modelcontextprotocol/server';
import {
  type Caller,
  createBearerAuth,
  type IssuerAuthOptions,
  protectedResourceMetadata,
  protectedResourceMetadataPath,
  refusalChallenge,
} from '@nexus/auth';
import { expectOption, isPositiveNumber } from '@nexus/core';
import { isLoopbackHost, readBody } from '@nexus/core/http';
import type { SkillRegistry } from '@nexus/registry';
import { buildMcpServer, type McpServerOptions, serverSettings } from './create-mcp-server.js';
import { type GuardPolicy, guardOrigin, guardRoute } from './http-guard.js';
import { attachVerifiedCaller, verifiedCallerOf } from './mcp-caller.js';
import { followDocuments } from './serve-documents.js';
import { SessionPool } from './session-pool.js';

/** Options of {@link serveHttp}. */
export interface HttpServeOptions extends McpServerOptions {
  /** Address to listen on (default `127.0.0.1`, reachable from this machine only). */
  host?: string;
  /** Port (default `0`: any free port; read the chosen one from {@link McpHttpServer.port}). */
  port?: number;
  /** Path MCP is served on (default `/mcp`). */
  path?: string;
  /** Bearer token every request must carry, at least 16 characters (default: 32 random bytes, base64url). */
  token?: string;
  /**
   * An OpenID Connect issuer whose JWT access tokens for `audience` are accepted too (the static
   * token keeps working): the server is then an OAuth resource server as MCP's authorization spec
   * says — its protected resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource`
   * names the issuer, and a 401 points to it. `scopes` are published there and required of every
   * token; `users` decide who among the issuer's people is admitted (403 otherwise).
   */
  auth?: IssuerAuthOptions;
  /**
   * The registry a person's calls go through (their ceiling: an `auth.users` entry's preset,
   * blocked paths and rules); by default everyone's go through `registry`. A 2025-era session
   * stays its opener's: another person's request on it is answered as an unknown session.
   */
  registryFor?: (caller: Extract<Caller, { kind: 'user' }>) => SkillRegistry | undefined;
  /** Further `Host` header values to accept (`name` or `name:port`); the listening address and, on loopback, `localhost`, `127.0.0.1` and `[::1]` always are. */
  allowedHosts?: readonly string[];
  /**
   * Further browser origins allowed to call (e.g. `http://localhost:6274`). On loopback the server's
   * own origins (`http` or `https` on `localhost`, `127.0.0.1` and `[::1]` at its port) always are;
   * a request carrying any other `Origin` is refused.
   */
  allowedOrigins?: readonly string[];
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Most 2025-era sessions open at once (default 32); a new client then takes the place of the session idle the longest. */
  maxSessions?: number;
  /** How long a 2025-era session may go without a request (none in flight) before it is closed, in milliseconds (default 30 minutes). */
  sessionIdleTimeoutMs?: number;
}

/** A running Streamable HTTP server. */
export interface McpHttpServer {
  /** Where clients connect, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** The bearer token clients send as `Authorization: Bearer <token>`. */
  readonly token: string;
  readonly host: string;
  readonly port: number;
  /** Ends every session (cancelling running calls) and stops listening. */
  close(): Promise<void>;
}

/** Default of {@link HttpServeOptions.maxBodyBytes}. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 32;
const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const MIN_TOKEN_LENGTH = 16;
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * `value` as a browser sends it in `Origin` (scheme, host and a port other than the scheme's
 * default, lower case), or `undefined` when it is not an http(s) origin (a path, credentials, a query).
 */
function browserOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  const isOrigin =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '';
  return isOrigin ? url.origin : undefined;
}

/** `name` as a `Host` header carries it: with the port unless it names one already. */
function hostHeader(name: string, port: number): string {
  const hasPort = name.startsWith('[') ? /\]:\d+$/.test(name) : name.includes(':');
  return (hasPort ? name : `${name}:${port}`).toLowerCase();
}

function normalizeOptions(options: HttpServeOptions) {
  const {
    host = '127.0.0.1',
    port = 0,
    path = '/mcp',
    token = randomBytes(32).toString('base64url'),
    auth,
    registryFor,
    allowedHosts = [],
    allowedOrigins = [],
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    maxSessions = DEFAULT_MAX_SESSIONS,
    sessionIdleTimeoutMs = DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    ...serverOptions
  } = options;
  expectOption(typeof host === 'string' && host !== '', 'host', 'a host name or address', host);
  expectOption(Number.isInteger(port) && port >= 0 && port <= 65535, 'port', 'an integer from 0 to 65535', port);
  expectOption(typeof path === 'string' && path.startsWith('/'), 'path', 'a path starting with "/"', path);
  expectOption(
    typeof token === 'string' && token.length >= MIN_TOKEN_LENGTH && !/\s/.test(token),
    'token',
    `a string of at least ${MIN_TOKEN_LENGTH} characters without spaces`,
    '<hidden>',
  );
  expectOption(Array.isArray(allowedOrigins), 'allowedOrigins', 'a list of origins', allowedOrigins);
  for (const [index, origin] of allowedOrigins.entries()) {
    expectOption(
      browserOrigin(origin) !== undefined,
      `allowedOrigins[${index}]`,
      'an http(s) origin (scheme, host and port only) such as "http://localhost:6274"',
      origin,
    );
  }
  expectOption(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0, 'maxBodyBytes', 'a positive integer', maxBodyBytes);
  expectOption(Number.isInteger(maxSessions) && maxSessions > 0, 'maxSessions', 'a positive integer', maxSessions);
  expectOption(isPositiveNumber(sessionIdleTimeoutMs), 'sessionIdleTimeoutMs', 'a positive number of milliseconds', sessionIdleTimeoutMs);
  return {
    host,
    port,
    path,
    token,
    auth,
    registryFor,
    allowedHosts,
    allowedOrigins: allowedOrigins.map((origin) => browserOrigin(origin) as string),
    maxBodyBytes,
    maxSessions,
    sessionIdleTimeoutMs,
    server: serverSettings(serverOptions),
  };
}

/** The scheme, host and port a request was made to (its `Host` was checked first). */
function origin(request: IncomingMessage): string {
  return `http://${request.headers.host ?? 'localhost'}`;
}

function sendError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: status === 400 ? -32700 : -32000, message }, id: null }));
}

/**
 * Serves a registry over MCP Streamable HTTP, hardened for a machine with a browser on it:
 * bound to `127.0.0.1` by default; every request needs the bearer token (compared in constant
 * time); `Host` and `Origin` are checked, so DNS-rebinding pages and other sites get 403 (its own
 * loopback origins and `allowedOrigins` pass, as does a request without `Origin`); only
 * `application/json` bodies are read (415 otherwise), up to `maxBodyBytes` (413); no CORS
 * headers are ever sent.
 *
 * Both protocol revisions are served on the one path. A 2026-07-28 request (one carrying the
 * per-request `_meta` envelope) is stateless: a fresh server instance answers it, no session is
 * kept, so any process sharing the token and `stateKey` can answer any request, confirmations'
 * retries included — no sticky sessions behind a load balancer. Registry changes reach those
 * clients on their `subscriptions/listen` streams. A 2025-era client gets a session of its own
 * (`initialize`, `Mcp-Session-Id`), as before.
 *
 * Sessions do not outlive their use: one without a request for `sessionIdleTimeoutMs` is closed
 * (a session with a call in flight is never idle), and an `initialize` arriving when
 * `maxSessions` are open evicts the session idle the longest — 503 only when every session has
 * a call in flight. A closed session's id gets 404, the Streamable HTTP answer that tells a
 * client to initialize again.
 */
export async function serveHttp(registry: SkillRegistry, options: HttpServeOptions = {}): Promise<McpHttpServer> {
  const settings = normalizeOptions(options);
  // Loaded here rather than at the top: a stdio server should not pay for the HTTP stack.
  const { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } = await import('@modelcontextprotocol/node');
  const { createMcpHandler, isLegacyRequest } = await import('@modelcontextprotocol/server');
  const sessions = new SessionPool<NodeStreamableHTTPServerTransport>({ idleTimeoutMs: settings.sessionIdleTimeoutMs });
  const registryOf = (caller: Caller | undefined) => (caller?.kind === 'user' && settings.registryFor?.(caller)) || registry;
  /** Who opened each 2025-era session (a person's subject; `undefined`: the static token's holder). */
  const sessionSubjects = new Map<string, string | undefined>();
  const subjectOf = (caller: Caller) => (caller.kind === 'user' ? caller.subject : undefined);
  // 2026-07-28 requests: each answered by an instance of its own, no session; changes reach the clients' listen streams.
  const modern = createMcpHandler(
    ({ era, authInfo }) => buildMcpServer(registryOf(verifiedCallerOf(authInfo)), settings.server, { era, followRegistry: false }),
    {
      legacy: 'reject',
      maxRequestBodySize: settings.maxBodyBytes,
    },
  );
  const serveModern = toNodeHandler(modern);
  const stopAnnouncingTools = registry.onChange(() => modern.notify.toolsChanged());
  const stopAnnouncingDocuments = followDocuments(registry, modern.notify);
  const hosts = new Set<string>();
  const origins = new Set(settings.allowedOrigins);
  const policy: GuardPolicy = { hosts, origins, path: settings.path };
  const bearer = createBearerAuth({ token: settings.token, ...settings.auth });
  // RFC 9728: the metadata of the resource at `path` is at the well-known name with that path appended (and, for clients that look there, without).
  const metadataPaths = new Set([protectedResourceMetadataPath(settings.path), protectedResourceMetadataPath()]);

  /**
   * Tells the pool what a request means for its session's idleness: any request is activity; each
   * JSON-RPC request in a POST is a call in flight until its answer has gone out on this response
   * (or the client left), and a cancellation ends its call at once, since it will get no answer.
   * A GET (the client's notification stream, open as long as the client is) is activity only.
   */
  function track(id: string, request: IncomingMessage, response: ServerResponse, body: unknown): void {
    sessions.touch(id);
    if (request.method !== 'POST') return;
    for (const message of Array.isArray(body) ? body : [body]) {
      if (isJSONRPCRequest(message)) response.once('close', sessions.begin(id, message.id));
      const cancelled =
        isJSONRPCNotification(message) && message.method === 'notifications/cancelled' ? message.params?.requestId : undefined;
      if (typeof cancelled === 'string' || typeof cancelled === 'number') sessions.end(id, cancelled);
    }
  }

  async function openSession(request: IncomingMessage, response: ServerResponse, body: unknown, caller: Caller): Promise<void> {
    if (sessions.size >= settings.maxSessions && !sessions.evictLongestIdle()) {
      return sendError(
        response,
        503,
        `All ${settings.maxSessions} sessions have a call in flight; try again when one has finished (or raise maxSessions).`,
      );
    }
    // The session is in the pool from the start, so initializes arriving together cannot exceed maxSessions.
    const id = randomUUID();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => id, maxRequestBodySize: settings.maxBodyBytes });
    transport.onclose = () => {
      sessions.delete(id);
      sessionSubjects.delete(id);
    };
    sessions.add(id, transport);
    sessionSubjects.set(id, subjectOf(caller));
    track(id, request, response, body);
    try {
      await buildMcpServer(registryOf(caller), settings.server, { era: 'legacy', followRegistry: true }).connect(transport);
      await transport.handleRequest(request, response, body);
    } finally {
      // The transport turned the initialize down (a bad Accept header, say): no session came of it.
      if (transport.sessionId === undefined) await transport.close();
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const foreign = guardOrigin(request.headers, policy);
    if (foreign) return sendError(response, foreign.status, foreign.message);
    const { auth } = settings;
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (auth && request.method === 'GET' && metadataPaths.has(pathname)) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify(protectedResourceMetadata(auth)));
    }
    const checked = await bearer.check(request.headers.authorization);
    if (!checked.ok) {
      const challenge = refusalChallenge(checked, {
        tokenSent: request.headers.authorization !== undefined,
        resourceMetadata: auth && `${origin(request)}${protectedResourceMetadataPath(settings.path)}`,
        scopes: auth?.scopes,
      });
      const status = checked.status === 403 ? 'Forbidden' : 'Unauthorized';
      return sendError(response, checked.status, `${status}: ${checked.reason}.`, challenge ? { 'www-authenticate': challenge } : {});
    }
    attachVerifiedCaller(request, checked.caller);
    const refusal = guardRoute(request.method, request.url, request.headers, policy);
    if (refusal) return sendError(response, refusal.status, refusal.message);
    let body: unknown;
    if (request.method === 'POST') {
      const text = await readBody(request, settings.maxBodyBytes);
      if (text === undefined) return sendError(response, 413, `Request body over ${settings.maxBodyBytes} bytes.`, { connection: 'close' });
      try {
        body = JSON.parse(text);
      } catch {
        return sendError(response, 400, 'Parse error: the body is not valid JSON.');
      }
    }
    if (request.method === 'POST' && !(await isLegacyRequest(await toWebRequest(request, body), body))) {
      return serveModern(request, response, body);
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport || sessionSubjects.get(sessionId) !== subjectOf(checked.caller))
        return sendError(response, 404, 'Session not found (ended, expired or evicted); initialize a new one.');
      track(sessionId, request, response, body);
      return transport.handleRequest(request, response, body);
    }
    if (request.method === 'POST' && isInitializeRequest(body)) return openSession(request, response, body, checked.caller);
    return sendError(response, 400, 'Missing Mcp-Session-Id header; start with an initialize request.');
  }

  const httpServer = createServer((request, response) => {
    handle(request, response).catch(() => sendError(response, 500, 'Internal server error.'));
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(settings.port, settings.host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  const hostName = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const names = [hostName, ...(isLoopbackHost(settings.host) ? LOOPBACK_NAMES : []), ...settings.allowedHosts];
  for (const name of names) hosts.add(hostHeader(name, port));
  // On loopback, pages at this port under a loopback name are the server's own origin, as those names are its own hosts.
  if (isLoopbackHost(settings.host)) {
    for (const name of LOOPBACK_NAMES) for (const scheme of ['http', 'https']) origins.add(new URL(`${scheme}://${name}:${port}`).origin);
  }

  return {
    url: `http://${hostName}:${port}${settings.path}`,
    token: settings.token,
    host: settings.host,
    port,
    async close() {
      stopAnnouncingTools();
      stopAnnouncingDocuments();
      await Promise.all([sessions.closeAll(), modern.close()]);
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
