import type { ServerEvent } from './rpc.js';
import type { LiveCall, LiveTurn } from './types.js';

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

/** `turns` with agent `agentId`'s turn `requestId` changed by `change` (the same object when there is no such turn). */
function changeTurn(turns: LiveTurns, agentId: string, requestId: string, change: (turn: LiveTurn) => LiveTurn): LiveTurns {
  const own = turns[agentId] ?? [];
  const index = own.findIndex((turn) => turn.requestId === requestId);
  if (index < 0) return turns;
  const changed = change(own[index] as LiveTurn);
  if (changed === own[index]) return turns;
  return { ...turns, [agentId]: own.map((turn, at) => (at === index ? changed : turn)) };
}

/**
 * The live turns after one event of `watch` (events that are not about a turn change nothing). A
 * turn the stream tells of again is no longer in doubt.
 */
export function applyTurnEvent(turns: LiveTurns, event: ServerEvent, now: number): LiveTurns {
  const agentId = event.data.agent_id;
  const requestId = event.data.request_id;
  if (typeof agentId !== 'string' || requestId === undefined) return turns;
  if (event.name === 'turn_started') {
    const turn: LiveTurn = { requestId: String(requestId), content: String(event.data.content), text: '', calls: [], status: 'running' };
    return { ...turns, [agentId]: [...(turns[agentId] ?? []), turn].slice(-TURNS_KEPT) };
  }
  return changeTurn(turns, agentId, String(requestId), (turn) => {
    const { doubted, ...seen } = applyToTurn(turn, event, now);
    return seen;
  });
}

/**
 * The live turns when a `watch` stream could not resume (the server restarted, or too much was
 * missed): those not ended may have ended unseen, until `wait_for` or the stream says otherwise
 * ({@link settleTurn}). Turns that start from now on are seen whole.
 */
export function doubtTurns(turns: LiveTurns): LiveTurns {
  const doubted = Object.entries(turns).map(([agentId, own]) => [
    agentId,
    own.map((turn) => (turn.status === 'ended' ? turn : { ...turn, doubted: true })),
  ]);
  return Object.fromEntries(doubted);
}

/** The turns {@link doubtTurns} left in doubt, as `[agentId, requestId]`: each to be asked about with `wait_for`. */
export function doubtedTurns(turns: LiveTurns): Array<[agentId: string, requestId: string]> {
  return Object.entries(turns).flatMap(([agentId, own]) =>
    own.filter((turn) => turn.doubted).map((turn): [string, string] => [agentId, turn.requestId]),
  );
}

/**
 * The live turns once `wait_for` (with no wait) answered `reply` about a doubted turn, or
 * `undefined` when the server no longer knows the turn or its agent. A turn still running or
 * waiting for approval is so again; one that ended is shown ended unseen, with its reply. A turn
 * the stream told of in the meantime is left as it is.
 */
export function settleTurn(turns: LiveTurns, agentId: string, requestId: string, reply: Record<string, unknown> | undefined): LiveTurns {
  return changeTurn(turns, agentId, requestId, (doubtedTurn) => {
    if (!doubtedTurn.doubted) return doubtedTurn;
    const { doubted, ...turn } = doubtedTurn;
    const status = reply?.status;
    if (status === 'running' || status === 'queued') return { ...turn, status: 'running' };
    if (status === 'awaiting_approval') return { ...turn, status: 'awaiting_approval' };
    return { ...turn, status: 'ended', endedUnseen: true, ...(reply ? { reply } : {}) };
  });
}
