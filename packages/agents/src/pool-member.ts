import type { AgentPermissions } from '@nexus/core';
import type { ModelMessage } from 'ai';
import type { Agent } from './agent.js';
import type { TurnUsage } from './agent-usage.js';
import type { RememberedApproval } from './approvals.js';
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
  readonly rememberedApprovals: readonly RememberedApproval[];
  /** Tokens used so far, as saved (none for a new agent). */
  readonly usage?: TurnUsage;
}

/** A turn of the pool that has not ended: how to cancel it, and what it was sent (absent for one resumed from a session). */
export interface OpenTurn {
  readonly abort: AbortController;
  readonly content: string | undefined;
}

/** A turn that ended: what it was sent and its method answer, for `wait_for` and a repeated `send`. */
export interface EndedTurn {
  readonly content: string | undefined;
  readonly reply: object;
}

/** How many ended turns an agent remembers for `wait_for` and a repeated `send`. */
export const ENDED_TURNS_KEPT = 100;

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
  /** The queued, running and paused turns, by request id. */
  readonly turns: Map<string, OpenTurn>;
  /** The last {@link ENDED_TURNS_KEPT} turns that ended, by request id, oldest first. */
  readonly ended: Map<string, EndedTurn>;
  lastActionAt: string;
  usage: TurnUsage;
  /** What restoring its session repaired (a torn last line), reported in `get_context`. */
  restoreWarnings: string[];
}

/** Whether an agent id is a temporary agent's (`.1`, `.2`, …): never saved, never restored. */
export function isTemporary(id: string): boolean {
  return id.startsWith('.');
}
