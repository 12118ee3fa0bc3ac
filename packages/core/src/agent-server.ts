/**
 * `@nexus/core/agent-server`: the agent server's wire protocol — its port, token and error codes —
 * shared by the server (`@nexus/agents`) and its clients (`@nexus/skills-agents`, `nexus`).
 */
export type { AgentServerConnection } from './agent-server-connection.js';
export {
  AGENT_SERVER_KEY_VARIABLE,
  AgentRpcError,
  agentServerTokenPath,
  DEFAULT_AGENT_SERVER_PORT,
  MIN_AGENT_SERVER_KEY_LENGTH,
  RPC_ERROR_CODES,
} from './agent-server-connection.js';
