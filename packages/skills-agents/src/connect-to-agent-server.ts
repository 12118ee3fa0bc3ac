import { isIP } from 'node:net';
import { expectOption, type ToolErrorKind } from '@nexus/core';
import { AgentRpcError, type AgentServerConnection, DEFAULT_AGENT_SERVER_PORT, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import { isLoopbackHost } from '@nexus/core/http';
import got from 'got';
import { readAgentServerToken, serveCommandFor } from './agent-server-token.js';

/** Options of {@link connectToAgentServer}. */
export interface ConnectToAgentServerOptions {
  /** The server's port (default 8765, `nexus serve`'s). */
  port?: number;
  /**
   * The server's address (default `127.0.0.1`): a loopback one only — `127.x.x.x`, `::1` or
   * `localhost` — since the token goes with every request. Anything else is refused at once.
   */
  host?: string;
  /** Where `NEXUS_API_KEY`, `XDG_STATE_HOME` and `HOME` are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

interface RpcErrorObject {
  code: number;
  message: string;
}

/** What each HTTP refusal means, for an answer without a JSON-RPC error to quote. */
const HTTP_PROBLEMS: Record<number, { problem: string; kind: ToolErrorKind; recoverable?: boolean }> = {
  400: { problem: 'The agent server could not read the request', kind: 'invalid_input' },
  401: { problem: 'The agent server wants a token', kind: 'forbidden' },
  403: {
    problem: 'The agent server refused the token (a server started since then has a new one; set NEXUS_API_KEY or read the new token file)',
    kind: 'forbidden',
  },
  404: { problem: 'The agent server does not know this path', kind: 'not_found' },
  405: { problem: 'The agent server takes POST only', kind: 'execution_failed' },
  413: { problem: 'The request is larger than the agent server accepts (1 MiB)', kind: 'invalid_input' },
  431: { problem: 'The request headers are larger than the agent server accepts (32 KiB)', kind: 'invalid_input' },
  503: { problem: 'The agent server is busy (too many connections); try again', kind: 'execution_failed', recoverable: true },
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rpcErrorOf(envelope: unknown): RpcErrorObject | undefined {
  if (!isRecord(envelope) || !isRecord(envelope.error)) return undefined;
  const { code, message } = envelope.error;
  return typeof code === 'number' && typeof message === 'string' ? { code, message } : undefined;
}

/** The answer's result, or the refusal in it as an {@link AgentRpcError}. */
function resultOf(status: number, body: string, server: string, agentId: string | undefined): unknown {
  const envelope = parseJson(body);
  const rpcError = rpcErrorOf(envelope);
  if (status === 200 && isRecord(envelope) && envelope.jsonrpc === '2.0' && 'result' in envelope) return envelope.result;
  if (status === 200) {
    if (rpcError) throw new AgentRpcError(rpcError.message, { rpcCode: rpcError.code });
    throw new AgentRpcError(`The agent server on ${server} answered something that is not JSON-RPC 2.0.`, {
      rpcCode: RPC_ERROR_CODES.serverError,
    });
  }
  const known = HTTP_PROBLEMS[status];
  const problem =
    status === 404 && agentId !== undefined ? `No agent "${agentId}" on the agent server` : (known?.problem ?? 'The agent server failed');
  const detail = rpcError && rpcError.message !== '' ? `: ${rpcError.message}` : '';
  throw new AgentRpcError(`${problem} (HTTP ${status} from ${server})${detail}.`, {
    rpcCode: rpcError?.code ?? (status === 400 ? RPC_ERROR_CODES.invalidRequest : RPC_ERROR_CODES.serverError),
    kind: known?.kind ?? 'execution_failed',
    recoverable: known?.recoverable ?? false,
  });
}

// No `cause`: got's errors carry the request options, the Authorization header among them.
function transportError(error: unknown, server: string, port: number): AgentRpcError {
  const code = (error as { code?: string }).code;
  const message =
    code === 'ECONNREFUSED'
      ? `No agent server on ${server} — start one with ${serveCommandFor(port)}.`
      : `The agent server on ${server} did not answer: ${code ?? (error as Error).name ?? 'error'}.`;
  return new AgentRpcError(message, { rpcCode: RPC_ERROR_CODES.serverError, recoverable: code !== 'ECONNREFUSED' });
}

/**
 * An {@link AgentServerConnection} over HTTP to the agent server (`nexus serve`) on a loopback
 * address: each `call` is one JSON-RPC 2.0 `POST` — to `/` for the global methods, to
 * `/agent/<id>` for an agent's — with `Authorization: Bearer <token>`. The token is found at each
 * call (a restarted server has a new one): `NEXUS_API_KEY` when set, else the server's token file
 * `$XDG_STATE_HOME/nexus/rpc-<port>.token`, refused when other users may read it. Calls over HTTP
 * are the token holder's. Failures reject with an `AgentRpcError` saying what happened.
 *
 * ```ts
 * const server = connectToAgentServer({ port: 8765 });
 * await server.call('create_agent', { agent_id: 'worker', preset: 'sandboxed' });
 * const answer = await server.call('send', { content: 'Summarise README.md' }, 'worker');
 * ```
 */
export function connectToAgentServer(options: ConnectToAgentServerOptions = {}): AgentServerConnection {
  const { port = DEFAULT_AGENT_SERVER_PORT, host = '127.0.0.1', env = process.env } = options;
  expectOption(Number.isInteger(port) && port >= 1 && port <= 65_535, 'port', 'an integer from 1 to 65535', port);
  expectOption(typeof host === 'string' && isLoopbackHost(host), 'host', 'a loopback address (127.0.0.1, ::1 or localhost)', host);
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const server = isIP(bare) === 6 ? `[${bare}]:${port}` : `${bare}:${port}`;
  let lastId = 0;
  return {
    port,
    async call(method, params, agentId, callOptions = {}) {
      const token = await readAgentServerToken(port, env);
      const path = agentId === undefined ? '/' : `/agent/${encodeURIComponent(agentId)}`;
      let response: { statusCode: number; body: string };
      try {
        response = await got.post(`http://${server}${path}`, {
          json: { jsonrpc: '2.0', id: ++lastId, method, params },
          headers: { authorization: `Bearer ${token}` },
          responseType: 'text',
          throwHttpErrors: false,
          followRedirect: false,
          retry: { limit: 0 },
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
        });
      } catch (error) {
        throw transportError(error, server, port);
      }
      return resultOf(response.statusCode, response.body, server, agentId);
    },
  };
}
