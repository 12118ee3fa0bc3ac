import type { ServerEvent } from './rpc.js';
import type { AgentInfo, LiveCall, LiveTurn } from './types.js';

/** How many turns of each agent the page keeps. */
const TURNS_KEPT = 20;

/** Live turns by agent id. */
export type LiveTurns = Readonly<Record<string, readonly LiveTurn[]>>;

function updateCall(turn: LiveTurn, id: unknown, change: (call: LiveCall) => LiveCall): LiveTurn {
  return { ...turn, calls: turn.calls.map((call) => (call.id === id ? change(call) : call)) };
}

/** The turn `event` is about, changed by it. */
function applyToTurn(turn: LiveTurn, event: ServerEvent, now: number): LiveTurn {
  const { data } = event;
  switch (event.name) {
    case 'text':
      return { ...turn, text: turn.text + String(data.delta) };
    case 'tool_call':
      return {
        ...turn,
        calls: [...turn.calls, { id: String(data.id), name: String(data.name), arguments: data.arguments, startedAt: now }],
      };
    case 'tool_result':
      return updateCall(turn, data.id, (call) => ({
        ...call,
        result: {
          success: data.success === true,
          ...(typeof data.kind === 'string' ? { kind: data.kind } : {}),
          output: String(data.output),
          durationMs: now - call.startedAt,
        },
        ...(typeof data.decision === 'string'
          ? {
              decision: {
                decision: data.decision,
                decidedBy: String(data.decided_by),
                ...(typeof data.reason === 'string' ? { reason: data.reason } : {}),
                ...(data.confirmation ? { confirmed: (data.confirmation as { given: boolean }).given } : {}),
              },
            }
          : {}),
      }));
    case 'approval_required':
      return { ...updateCall(turn, findCallOf(turn, data), (call) => ({ ...call, asked: true })), status: 'awaiting_approval' };
    case 'usage':
      return { ...turn, usage: data.usage as LiveTurn['usage'] };
    case 'approval_resolved':
      return { ...turn, status: 'running' };
    case 'turn_ended':
      return { ...turn, status: 'ended', reply: data.reply as Record<string, unknown> };
    default:
      return turn;
  }
}

/** The call an approval is for: the last call of that tool without a result. */
function findCallOf(turn: LiveTurn, approval: Record<string, unknown>): string | undefined {
  return turn.calls.findLast((call) => call.name === approval.tool && !call.result)?.id;
}

/** The live turns after one event of `watch` (events that are not about a turn change nothing). */
export function applyTurnEvent(turns: LiveTurns, event: ServerEvent, now: number): LiveTurns {
  const agentId = event.data.agent_id;
  const requestId = event.data.request_id;
  if (typeof agentId !== 'string' || requestId === undefined) return turns;
  const own = turns[agentId] ?? [];
  if (event.name === 'turn_started') {
    const turn: LiveTurn = { requestId: String(requestId), content: String(event.data.content), text: '', calls: [], status: 'running' };
    return { ...turns, [agentId]: [...own, turn].slice(-TURNS_KEPT) };
  }
  const index = own.findIndex((turn) => turn.requestId === String(requestId));
  if (index < 0) return turns;
  const changed = applyToTurn(own[index] as LiveTurn, event, now);
  return { ...turns, [agentId]: own.map((turn, at) => (at === index ? changed : turn)) };
}

/**
 * The live turns when a `watch` stream could not resume (the server restarted, or too much was
 * missed): those not ended may have ended unseen, until the agents' list says otherwise
 * ({@link settleTurns}). Turns that start from now on are seen whole.
 */
export function doubtTurns(turns: LiveTurns): LiveTurns {
  const doubted = Object.entries(turns).map(([agentId, own]) => [
    agentId,
    own.map((turn) => (turn.status === 'ended' ? turn : { ...turn, doubted: true })),
  ]);
  return Object.fromEntries(doubted);
}

/**
 * The live turns once the page has listed `agents` after {@link doubtTurns}: a doubted turn whose
 * agent is now idle, or gone, ended while the page was not watching, and says so.
 */
export function settleTurns(turns: LiveTurns, agents: readonly AgentInfo[]): LiveTurns {
  const states = new Map(agents.map((agent) => [agent.agent_id, agent.state]));
  const settled = Object.entries(turns).map(([agentId, own]) => {
    const state = states.get(agentId);
    const ended = state === undefined || state === 'idle';
    const settle = ({ doubted, ...turn }: LiveTurn): LiveTurn =>
      ended && turn.status !== 'ended' ? { ...turn, status: 'ended', endedUnseen: true } : turn;
    return [agentId, own.map((turn) => (turn.doubted ? settle(turn) : turn))];
  });
  return Object.fromEntries(settled);
}
