/** An agent as `list_agents` describes it. */
export interface AgentInfo {
  agent_id: string;
  parent_agent_id: string | null;
  model: string;
  permission_level: string;
  cwd: string;
  write_paths: string[];
  message_count: number;
  state: 'idle' | 'running' | 'awaiting_approval';
  /** Tokens over its turns. */
  usage: { input_tokens: number; output_tokens: number; total_tokens: number };
}

/** A pending approval (specs/agent-server.md §8). */
export interface Approval {
  approval_id: string;
  agent_id: string;
  request_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  question: string;
  created_at: string;
}

/** `get_tokens`. */
export interface Tokens {
  total: number;
  budget: number;
}

/** A tool call of a live turn, as the page shows it. */
export interface LiveCall {
  id: string;
  name: string;
  arguments: unknown;
  startedAt: number;
  result?: { success: boolean; kind?: string; output: string; durationMs: number };
  /** The policy's decision, what made it (`preset`, `rule 3`, a hook) and the confirmation, as the server reported with the result. */
  decision?: { decision: string; decidedBy: string; reason?: string; confirmed?: boolean };
  /** An approval was asked for it. */
  asked?: boolean;
}

/** A turn as it streams in: its text and calls, in order. */
export interface LiveTurn {
  requestId: string;
  content: string;
  text: string;
  calls: LiveCall[];
  status: 'running' | 'awaiting_approval' | 'ended';
  reply?: Record<string, unknown>;
  /** Not ended when a `watch` stream could not resume: it may have ended unseen, until `wait_for` tells. */
  doubted?: boolean;
  /** It ended while the page was not watching: its `reply` (when the server still had it) and the history tell how. */
  endedUnseen?: boolean;
  /** Tokens so far, from the turn's `usage` events. */
  usage?: { inputTokens: number; outputTokens: number };
}
