import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type IssuerAuthOptions, protectedResourceMetadata, protectedResourceMetadataPath } from '@nexus/auth';
import { ConfigError, isValidAgentId, nexusStateDir } from '@nexus/core';
import { AgentRpcError, agentServerTokenPath, DEFAULT_AGENT_SERVER_PORT, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import { isLoopbackHost, readBody } from '@nexus/core/http';
import type { AgentEvent } from './agent.js';
import type { AgentRuntime } from './agent-runtime.js';
import { type ConsoleOptions, type ConsoleRoutes, consoleRoutes } from './console-routes.js';
import { ownAgentsOnly } from './own-changes.js';
import { streamedTurnEvent } from './pool-events.js';
import { checkAdmin, type Requester } from './requester-policy.js';
import { agentServerAuth } from './server-auth.js';
import { newToken, tokenFromEnvironment, writeTokenFile } from './server-token.js';
import { SessionFileError } from './session-store.js';
import { listSkillPackages, type SkillPackageIndex } from './skill-packages-method.js';
import { watchChanges, writeEvent } from './watch-changes.js';

/** Largest request body accepted. */
export const MAX_RPC_BODY_BYTES = 1024 * 1024;
/** Largest request headers accepted. */
export const MAX_RPC_HEADER_BYTES = 32 * 1024;
/** Most connections served at once. */
export const MAX_RPC_CONNECTIONS = 32;

/** Options of {@link serveAgents}. */
export interface ServeAgentsOptions {
  /** Default 8765 (core's `DEFAULT_AGENT_SERVER_PORT`); 0 for any free port. */
  port?: number;
  /** A loopback address (default `127.0.0.1`); anything else is refused. */
  host?: string;
  /** Where `NEXUS_API_KEY` is read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where the token file goes (default `nexusStateDir(env)`). */
  stateDir?: string;
  /** Browser origins allowed to call; by default a request with an `Origin` is refused. */
  allowedOrigins?: readonly string[];
  /** Serves the console page (docs/console.md) under `/console/`; its own origin is then allowed too. */
  console?: ConsoleOptions;
  /**
   * An OpenID Connect issuer whose people may call too (the static token keeps working): their
   * JWT access tokens for `audience` are verified by `@nexus/auth`, the protected resource
   * metadata (RFC 9728) is served at `/.well-known/oauth-protected-resource`, and a refused token
   * is 401 `invalid_token` pointing to it.
   */
  auth?: IssuerAuthOptions;
  /** Answers `list_skill_packages` (docs/console.md), e.g. `@nexus/skills-md`'s `describeSkillPackages` of the served library. */
  skillPackages?: SkillPackageIndex;
}

/** A running agent server. */
export interface AgentServer {
  readonly url: string;
  readonly port: number;
  /** The bearer token clients send. */
  readonly token: string;
  /** Where the token was written (`undefined` when it came from `NEXUS_API_KEY`). */
  readonly tokenFile: string | undefined;
  /** The console's one-time link (`undefined` without a console): the page, and a code it exchanges once for the token. */
  readonly consoleUrl: string | undefined;
  /** Settles once the server has stopped (after `close()` or `shutdown_server`). */
  readonly closed: Promise<void>;
  /** Stops the server: running turns are cancelled, the token file removed. */
  close(): Promise<void>;
}

interface RpcRequest {
  id: string | number | null;
  method: string;
  params: unknown;
}

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly rpcCode: number = RPC_ERROR_CODES.invalidRequest,
    readonly id: string | number | null = null,
    readonly challenge?: string,
  ) {
    super(message);
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Checks a JSON-RPC 2.0 envelope: one request (no batch), `"2.0"`, a method, named params, a string or integer id. */
function parseEnvelope(text: string): RpcRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, 'Parse error: the body is not JSON.', RPC_ERROR_CODES.parseError);
  }
  if (Array.isArray(body)) throw new HttpRefusal(400, 'Invalid request: batches are not supported.');
  if (typeof body !== 'object' || body === null) throw new HttpRefusal(400, 'Invalid request: expected a JSON-RPC object.');
  const { jsonrpc, method, params, id = null } = body as Record<string, unknown>;
  if (!(typeof id === 'string' || Number.isInteger(id) || id === null))
    throw new HttpRefusal(400, 'Invalid request: `id` must be a string or an integer.');
  const requestId = id as string | number | null;
  if (jsonrpc !== '2.0') throw new HttpRefusal(400, 'Invalid request: `jsonrpc` must be "2.0".', RPC_ERROR_CODES.invalidRequest, requestId);
  if (typeof method !== 'string')
    throw new HttpRefusal(400, 'Invalid request: `method` must be a string.', RPC_ERROR_CODES.invalidRequest, requestId);
  // JSON-RPC 2.0: params, when present, are structured (an object or an array); anything else makes no request.
  if (params !== undefined && (typeof params !== 'object' || params === null))
    throw new HttpRefusal(400, 'Invalid request: `params` must be an object.', RPC_ERROR_CODES.invalidRequest, requestId);
  if (Array.isArray(params))
    throw new HttpRefusal(200, 'Invalid params: params must be named (an object).', RPC_ERROR_CODES.invalidParams, requestId);
  return { id: requestId, method, params };
}

/** A percent-encoded path segment decoded once, or `undefined` when its encoding is malformed. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * `/` and `/rpc` are the server's; `/agent/<id>` an agent's. Decided on the path as sent: a URL
 * parser would resolve dot segments (`/agent/%2e%2e` is `/` to it), and an id is decoded only
 * after the path has been split.
 */
function route(url = '/'): { agentId?: string } {
  const path = url.split('?', 1)[0] ?? '';
  if (path === '/' || path === '/rpc') return {};
  const segment = /^\/agent\/([^/]+)$/.exec(path)?.[1];
  const agentId = segment === undefined ? undefined : decodeSegment(segment);
  if (!isValidAgentId(agentId)) throw new HttpRefusal(404, `Not found: ${path}.`);
  return { agentId };
}

// What Node answers for a request its parser refuses before the server sees it; but a method the
// parser does not know is, like every method but POST, 405 (Node would answer 400).
const PARSE_ERROR_STATUS: Readonly<Record<string, number>> = {
  HPE_INVALID_METHOD: 405,
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** Answers a request Node's parser refused (a `clientError`), then closes the connection. */
function answerParseError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: never write into a response that has begun.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) return void socket.destroy();
  const status = PARSE_ERROR_STATUS[error.code ?? ''] ?? 400;
  const message = status === 405 ? 'This method is not allowed; use POST.' : `${STATUS_CODES[status]}.`;
  const body = JSON.stringify(rpcError(null, RPC_ERROR_CODES.invalidRequest, message));
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    ...(status === 405 ? ['allow: POST'] : []),
    'connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

function errorOf(error: unknown): { status: number; code: number; message: string } {
  if (AgentRpcError.isInstance(error))
    return { status: error.kind === 'not_found' ? 404 : 200, code: error.rpcCode, message: error.message };
  if (SessionFileError.isInstance(error)) return { status: 500, code: RPC_ERROR_CODES.serverError, message: error.message };
  return { status: 200, code: RPC_ERROR_CODES.internalError, message: `Internal error: ${(error as Error).message}` };
}

/**
 * Serves an {@link AgentRuntime} (the local `AgentPool`, or another) as specs/agent-server.md
 * describes: JSON-RPC 2.0 over HTTP POST on a loopback address, every request the token
 * holder's (`Authorization: Bearer`, compared in constant time; missing → 401, wrong → 403), `Host` and `Origin` checked against DNS rebinding,
 * 1 MiB bodies, 32 KiB headers and 32 connections at most; `send` with `stream: true` answers with
 * server-sent events, and a client that goes away cancels its turn. The token is `NEXUS_API_KEY`
 * when set, else a fresh one written to `<stateDir>/rpc-<port>.token` (0600).
 */
export async function serveAgents(pool: AgentRuntime, options: ServeAgentsOptions = {}): Promise<AgentServer> {
  const { port: wantedPort = DEFAULT_AGENT_SERVER_PORT, host = '127.0.0.1', env = process.env, allowedOrigins = [] } = options;
  if (!isLoopbackHost(host)) throw new ConfigError(`The agent server listens on loopback only (127.0.0.1, ::1, localhost), got "${host}".`);
  const fromEnvironment = tokenFromEnvironment(env);
  const token = fromEnvironment ?? newToken();
  const authenticate = agentServerAuth(token, options.auth);
  const origins = new Set(allowedOrigins);
  const hosts = new Set<string>();
  const sockets = new Set<Socket>();
  /** Connections that have sent a request. */
  const answering = new WeakSet<Socket>();
  const site: ConsoleRoutes | undefined = options.console && (await consoleRoutes(options.console, token));
  const pageOrigins = new Set<string>();
  const stopping = new AbortController();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    answering.add(request.socket);
    if (sockets.size > MAX_RPC_CONNECTIONS) throw new HttpRefusal(503, `Too many connections (at most ${MAX_RPC_CONNECTIONS}); try again.`);
    if (!hosts.has((request.headers.host ?? '').toLowerCase()))
      throw new HttpRefusal(403, `Host "${request.headers.host ?? ''}" is not allowed.`);
    if (request.headers.origin !== undefined && !origins.has(request.headers.origin))
      throw new HttpRefusal(403, `Origin "${request.headers.origin}" is not allowed.`);
    const page = await site?.answer(request, response, pageOrigins);
    if (page === 'answered') return;
    if (page) throw new HttpRefusal(page.status, page.message);
    if (options.auth && request.method === 'GET' && request.url === protectedResourceMetadataPath())
      return sendJson(response, 200, protectedResourceMetadata(options.auth));
    const checked = await authenticate(request.headers.authorization, `http://${request.headers.host}`);
    if (!checked.ok) throw new HttpRefusal(checked.status, checked.message, RPC_ERROR_CODES.invalidRequest, null, checked.challenge);
    if (request.method !== 'POST') throw new HttpRefusal(405, `Method ${request.method} is not allowed; use POST.`);
    const { agentId } = route(request.url);
    const text = await readBody(request, MAX_RPC_BODY_BYTES);
    if (text === undefined) throw new HttpRefusal(413, `The body is over ${MAX_RPC_BODY_BYTES} bytes.`);
    const rpc = parseEnvelope(text);
    if (rpc.method === 'watch') {
      try {
        const visible = await ownAgentsOnly(pool, checked.requester);
        return watchChanges(pool, rpc.params, agentId, response, stopping.signal, visible);
      } catch (error) {
        const { status, code, message } = errorOf(error);
        return sendJson(response, status, rpcError(rpc.id, code, message));
      }
    }
    const streaming = rpc.method === 'send' && (rpc.params as { stream?: unknown } | undefined)?.stream === true;
    if (streaming) return streamSend(rpc, checked.requester, agentId, response);
    try {
      if (rpc.method === 'list_skill_packages') checkAdmin(checked.requester, 'list the skill packages');
      const result =
        rpc.method === 'list_skill_packages'
          ? await listSkillPackages(options.skillPackages, rpc.params, agentId)
          : await pool.call(rpc.method, rpc.params, checked.requester, agentId);
      sendJson(response, 200, { jsonrpc: '2.0', id: rpc.id, result });
    } catch (error) {
      const { status, code, message } = errorOf(error);
      sendJson(response, status, rpcError(rpc.id, code, message));
    }
  };

  const streamSend = async (rpc: RpcRequest, requester: Requester, agentId: string | undefined, response: ServerResponse) => {
    const controller = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    const { stream: _stream, ...params } = rpc.params as Record<string, unknown>;
    const onEvent = (event: AgentEvent) => {
      const streamed = streamedTurnEvent(agentId as string, event);
      if (!response.headersSent) response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (streamed) writeEvent(response, ...streamed);
    };
    try {
      const result = await pool.call('send', params, requester, agentId, { onEvent, signal: controller.signal });
      if (!response.headersSent) response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      writeEvent(response, 'result', result);
    } catch (error) {
      const { status, code, message } = errorOf(error);
      if (!response.headersSent) return sendJson(response, status, rpcError(rpc.id, code, message));
      writeEvent(response, 'error', { code, message });
    }
    response.end();
  };

  const server = createServer({ maxHeaderSize: MAX_RPC_HEADER_BYTES }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      const refusal =
        error instanceof HttpRefusal
          ? error
          : new HttpRefusal(500, `Internal error: ${(error as Error).message}`, RPC_ERROR_CODES.internalError);
      if (response.headersSent) return response.end();
      if (refusal.status === 401) response.setHeader('www-authenticate', refusal.challenge ?? 'Bearer realm="nexus"');
      else if (refusal.challenge) response.setHeader('www-authenticate', refusal.challenge);
      if (refusal.status === 405) response.setHeader('allow', 'POST');
      // A refused request's body may be unread: the connection ends after the answer rather than being reused.
      if (!request.complete) response.setHeader('connection', 'close');
      sendJson(response, refusal.status, rpcError(refusal.id, refusal.rpcCode, refusal.message));
    });
  });
  server.on('clientError', answerParseError);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(wantedPort, host);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const hostName = host.includes(':') ? `[${host}]` : host;
  for (const name of [hostName, 'localhost', '127.0.0.1', '[::1]']) hosts.add(`${name}:${port}`.toLowerCase());
  if (site) for (const name of hosts) pageOrigins.add(`http://${name}`);
  for (const origin of pageOrigins) origins.add(origin);
  pool.port = port;

  const stateDir = options.stateDir ?? nexusStateDir(env);
  const tokenFile = fromEnvironment === undefined ? agentServerTokenPath(port, stateDir) : undefined;
  if (tokenFile) await writeTokenFile(tokenFile, token);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopping.abort();
      await pool.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Node counts a connection that never sent a request as neither idle nor busy: it would hold the close.
      for (const socket of sockets) if (!answering.has(socket)) socket.destroy();
      await stopped;
      if (tokenFile) await rm(tokenFile, { force: true });
    })();
    return closing;
  };
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  pool.once('shutdown', () => void close().then(markClosed));
  return {
    url: `http://${hostName}:${port}`,
    port,
    token,
    tokenFile,
    consoleUrl: site?.link(`http://${hostName}:${port}`),
    closed,
    close: () => close().then(markClosed),
  };
}
