import { setTimeout as sleep } from 'node:timers/promises';
import type { PoolMember } from './pool-member.js';
import { refuse, sendReply } from './rpc-replies.js';

/** How long `wait_for` waits when not told (specs/agent-server.md §8). */
export const DEFAULT_WAIT_MS = 30_000;

/**
 * `wait_for`: a turn's result once it ends — at once for one of the last that ended — or, at
 * `timeoutMs`, where it stands: `awaiting_approval` with its approvals, `running` or `queued`.
 */
export async function waitForTurn(member: PoolMember, requestId: string | number, timeoutMs = DEFAULT_WAIT_MS): Promise<object> {
  const key = String(requestId);
  const turn = member.agent.turn(key);
  if (!turn) {
    const ended = member.ended.get(key);
    if (!ended) throw refuse(`Agent "${member.id}" has no turn with request_id ${JSON.stringify(requestId)}.`);
    return ended.reply;
  }
  const timer = new AbortController();
  const result = await Promise.race([turn.end(), sleep(timeoutMs, undefined, { signal: timer.signal }).catch(() => undefined)]);
  timer.abort();
  if (result) return sendReply(member.id, result, requestId);
  const state = member.agent.turnState;
  if (state?.requestId !== key) return { status: 'queued', request_id: requestId };
  if (state.status === 'running') return { status: 'running', request_id: requestId };
  return sendReply(member.id, await turn.next(), requestId);
}
