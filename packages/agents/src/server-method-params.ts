import { RPC_ERROR_CODES } from '@nexus/core/agent-server';
import { refuse } from './rpc-replies.js';

/**
 * Refuses a call of `method` — one the server answers itself, not the runtime — on an agent's path
 * (`-32601`) or with params (`-32602`), as the runtime refuses its own methods.
 */
export function expectGlobalWithoutParams(method: string, params: unknown, agentId: string | undefined): void {
  expectGlobal(method, agentId);
  if (params !== undefined && Object.keys(params as object).length > 0) throw refuse(`Invalid params for ${method}: it takes none.`);
}

/** Refuses a call of a global `method` on an agent's path (`-32601`). */
export function expectGlobal(method: string, agentId: string | undefined): void {
  if (agentId !== undefined) throw refuse(`Method not found: ${method} is called on POST / (or /rpc).`, RPC_ERROR_CODES.methodNotFound);
}
