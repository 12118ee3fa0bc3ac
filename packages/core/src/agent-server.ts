/**
 * `@nexus/core/agent-server`: the agent server's wire protocol — its port, token and error codes —
 * shared by the server (`@nexus/agents`) and its clients (`@nexus/skills-agents`, `nexus`).
 */
import { join } from 'node:path';
import { NexusError, type NexusErrorOptions } from './errors.js';
import { nexusStateDir } from './state-dir.js';

/** The port `nexus serve` listens on unless told otherwise. */
export const DEFAULT_AGENT_SERVER_PORT = 8765;

/** The variable that holds an agent server's token instead of its token file; at least 16 characters. */
export const AGENT_SERVER_KEY_VARIABLE = 'NEXUS_API_KEY';

/** Shortest token {@link AGENT_SERVER_KEY_VARIABLE} may hold. */
export const MIN_AGENT_SERVER_KEY_LENGTH = 16;

/**
 * Where the agent server on `port` writes its token and clients read it:
 * `<stateDir>/rpc-<port>.token`, by default `$XDG_STATE_HOME/nexus/rpc-<port>.token` (specs/agent-server.md §2).
 */
export function agentServerTokenPath(port: number, stateDir: string = nexusStateDir()): string {
  return join(stateDir, `rpc-${port}.token`);
}

/** JSON-RPC 2.0 error codes the agent server answers with (specs/agent-server.md §1). */
export const RPC_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
} as const;

/**
 * How agent-control skills (`nexus_create`, `nexus_send`, …) reach an agent server: in-process
 * inside one (the requesting agent is known to the server), over HTTP with the server's token
 * elsewhere (the caller is the token holder). Registered as the `agentServer` service.
 */
export interface AgentServerConnection {
  /** The server's port, which the skills' optional `port` parameter is compared with. */
  readonly port: number;
  /**
   * Calls a method of specs/agent-server.md §3: a global one (`create_agent`, `destroy_agent`,
   * `list_agents`, `shutdown_server`) without `agentId`, an agent's (`send`, `cancel`,
   * `get_tokens`, …) on agent `agentId`. Resolves with the method's result; rejects with an
   * {@link AgentRpcError}. Aborting `options.signal` stops the request — for `send`, the turn.
   */
  call(method: string, params: Record<string, unknown>, agentId?: string, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** A JSON-RPC error of the agent server, with its numeric code (e.g. -32602 for a refusal). */
export class AgentRpcError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/AgentRpcError');
  static override readonly code: string = 'AGENT_RPC';
  /** The JSON-RPC error code (see {@link RPC_ERROR_CODES}). */
  readonly rpcCode: number;

  constructor(message: string, options: Omit<NexusErrorOptions, 'code'> & { rpcCode: number }) {
    const { rpcCode, ...rest } = options;
    super(message, { ...rest, kind: rest.kind ?? (rpcCode === RPC_ERROR_CODES.invalidParams ? 'invalid_input' : 'execution_failed') });
    this.rpcCode = rpcCode;
  }
}
