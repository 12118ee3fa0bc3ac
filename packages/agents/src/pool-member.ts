import type { AgentPermissions } from '@nexus/core';
import type { ModelMessage } from 'ai';
import type { Agent, TurnUsage } from './agent.js';
import type { AgentGrant } from './child-permissions.js';

/** What a pool agent is built from: a `create_agent` call or its saved session. */
export interface MemberSpec {
  readonly id: string;
  readonly createdAt: string;
  readonly parentId: string | undefined;
  readonly grant: AgentGrant;
  readonly modelAlias: string | undefined;
  readonly systemPrompt: string | undefined;
  readonly messages: readonly ModelMessage[];
}

/** An agent of the pool, with what the methods report and decide by. */
export interface PoolMember {
  readonly id: string;
  readonly createdAt: string;
  readonly parentId: string | undefined;
  readonly depth: number;
  readonly grant: AgentGrant;
  readonly permissions: AgentPermissions;
  readonly modelAlias: string;
  readonly agent: Agent;
  /** The running and queued turns, by request id. */
  readonly turns: Map<string, AbortController>;
  lastActionAt: string;
  usage: TurnUsage;
  /** What restoring its session repaired (a torn last line), reported in `get_context`. */
  restoreWarnings: string[];
}

/** Whether an agent id is a temporary agent's (`.1`, `.2`, …): never saved, never restored. */
export function isTemporary(id: string): boolean {
  return id.startsWith('.');
}
