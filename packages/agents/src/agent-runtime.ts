import type { AgentEvent } from './agent.js';
import type { PoolChange } from './pool-events.js';
import type { Requester } from './requester-policy.js';

/** Options of one turn through a runtime. */
export interface PoolSendOptions {
  /** Streams the turn's events (a streaming `send`). */
  onEvent?: (event: AgentEvent) => void;
  /** Cancels the turn (a streaming client that went away). */
  signal?: AbortSignal;
}

/**
 * Where the agent server's methods run (specs/agent-server.md §10): the local runtime
 * (`AgentPool`, one process, the default) or another, such as `@nexus/agents-restate`'s, whose
 * agents live in a durable-execution engine. `serveAgents` serves any of them the same way: every
 * method, rule and wire shape is the runtime's to keep identical.
 */
export interface AgentRuntime {
  /**
   * Runs a method: a global one without `agentId`, an agent's on `agentId`. Params are validated
   * strictly; refusals and failures reject with an `AgentRpcError` (or a `SessionFileError`).
   */
  call(method: string, params: unknown, requester: Requester, agentId?: string, options?: PoolSendOptions): Promise<unknown>;
  /** The port agents' `nexus_*` skills see as this server's (set by `serveAgents` once it listens). */
  port: number;
  /** Calls `listener` once, when `shutdown_server` was called. */
  once(event: 'shutdown', listener: () => void): unknown;
  /** Calls `listener` for each change of the agents, turns and approvals, as `watch` streams them (docs/console.md). */
  on(event: 'change', listener: (change: PoolChange) => void): unknown;
  /** Stops calling a `change` listener. */
  off(event: 'change', listener: (change: PoolChange) => void): unknown;
  /** The person who owns an agent in memory (`undefined`: the static token holder's, or not in memory); a runtime without owners leaves it out. */
  ownerOf?(agentId: string): string | undefined;
  /** Stops this process's part of the runtime (its turns end or are left to resume); settles when done. */
  close(): Promise<void>;
}
