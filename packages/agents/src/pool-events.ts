import type { AgentEvent } from './agent.js';
import type { CallDecision } from './call-decisions.js';
import { approvalReply } from './rpc-replies.js';

/** Length a streamed tool result's output is cut to. */
const STREAMED_OUTPUT_LENGTH = 2000;

/**
 * A change in an {@link AgentPool} as the agent server streams it (`watch`, docs/console.md): the
 * server-sent event's name and its data, which always names the agent.
 */
export interface PoolChange {
  readonly name:
    | 'agent_created'
    | 'agent_destroyed'
    | 'turn_started'
    | 'turn_ended'
    | 'approval_resolved'
    | 'text'
    | 'tool_call'
    | 'tool_result'
    | 'approval_required'
    | 'usage'
    | 'compacted';
  readonly data: { readonly agent_id: string } & Record<string, unknown>;
}

/**
 * A turn's event as a streaming `send` sends it (specs/agent-server.md §3.1): the event's name and
 * data; `undefined` for events that are not streamed.
 */
export function streamedTurnEvent(agentId: string, event: AgentEvent): [name: string, data: object] | undefined {
  switch (event.type) {
    case 'approval-required':
      return ['approval_required', approvalReply(agentId, event.approval)];
    case 'text':
      return ['text', { delta: event.text }];
    case 'tool-call':
      return ['tool_call', { id: event.id, name: event.name, arguments: event.arguments }];
    case 'tool-result':
      return [
        'tool_result',
        {
          id: event.id,
          name: event.name,
          success: event.success,
          ...(event.kind ? { kind: event.kind } : {}),
          output: event.output.slice(0, STREAMED_OUTPUT_LENGTH),
        },
      ];
    default:
      return undefined;
  }
}

/**
 * A turn's event as `watch` streams it: the streamed `send`'s events, its usage and compactions,
 * each naming the agent and turn; a tool result with its call's policy `decision`, when known.
 */
export function turnEventChange(agentId: string, requestId: string, event: AgentEvent, decision?: CallDecision): PoolChange | undefined {
  const where = { agent_id: agentId, request_id: requestId };
  if (event.type === 'usage') return { name: 'usage', data: { ...where, usage: event.usage } };
  if (event.type === 'compacted')
    return { name: 'compacted', data: { ...where, tokens_before: event.tokensBefore, tokens_after: event.tokensAfter } };
  const streamed = streamedTurnEvent(agentId, event);
  return streamed && { name: streamed[0] as PoolChange['name'], data: { ...where, ...streamed[1], ...decision } };
}
