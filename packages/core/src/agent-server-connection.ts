import { NexusError, type NexusErrorOptions } from './errors.js';

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
   * {@link AgentRpcError}.
   */
  call(method: string, params: Record<string, unknown>, agentId?: string): Promise<unknown>;
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
