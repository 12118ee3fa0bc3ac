import { AgentRpcError, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import type { ModelMessage } from 'ai';
import type { CompactResult, TurnResult } from './agent.js';
import type { PendingApproval } from './approvals.js';
import { isTemporary, type PoolMember } from './pool-member.js';
import type { MethodParams } from './rpc-params.js';

/*
 * The answers of the agent server's methods (specs/agent-server.md §3), in the wire's field names:
 * what rpc-params.ts is for the params.
 */

/** A refused call: `-32602` unless another code is given. */
export function refuse(message: string, rpcCode: number = RPC_ERROR_CODES.invalidParams): AgentRpcError {
  return new AgentRpcError(message, { rpcCode });
}

/** No agent of that id, in memory or saved (an HTTP server answers 404). */
export function noSuchAgent(agentId: string): AgentRpcError {
  return new AgentRpcError(`No agent "${agentId}".`, { rpcCode: RPC_ERROR_CODES.serverError, kind: 'not_found' });
}

/** A repeated `send` whose `request_id` names an earlier turn of other content (a retry must repeat the content). */
export function otherContentRefusal(requestId: string | number): AgentRpcError {
  return refuse(`request_id ${JSON.stringify(requestId)} names an earlier turn with other content; use a new request_id.`);
}

/** An agent as `list_agents` lists it. */
export function describeMember(member: PoolMember, childCount: number) {
  const context = member.agent.context();
  return {
    agent_id: member.id,
    is_temp: isTemporary(member.id),
    created_at: member.createdAt,
    message_count: context.message_count,
    parent_agent_id: member.parentId ?? null,
    child_count: childCount,
    halted_at_iteration_limit: context.halted_at_iteration_limit,
    model: member.modelAlias,
    last_action_at: member.lastActionAt,
    permission_level: member.permissions.level,
    cwd: member.grant.cwd,
    write_paths: member.grant.writePaths,
    state: stateOf(member),
    usage: { input_tokens: member.usage.inputTokens, output_tokens: member.usage.outputTokens, total_tokens: member.usage.totalTokens },
  };
}

/** What an agent is doing: waiting for a person, running a turn (or has some queued), or nothing. */
function stateOf(member: PoolMember): 'idle' | 'running' | 'awaiting_approval' {
  if (member.agent.turnState?.status === 'awaiting_approval') return 'awaiting_approval';
  return member.turns.size > 0 ? 'running' : 'idle';
}

/** The answer of `send` (and `wait_for`): the turn's text, that it was cancelled, or the approvals it waits on. */
export function sendReply(agentId: string, result: TurnResult, requestId: string | number) {
  if (result.status === 'awaiting_approval')
    return {
      status: 'awaiting_approval',
      request_id: requestId,
      approvals: result.approvals.map((approval) => approvalReply(agentId, approval)),
    };
  if (result.cancelled) return { cancelled: true, request_id: requestId };
  return { content: result.content, request_id: requestId, halted_at_iteration_limit: result.haltedAtIterationLimit };
}

/** An approval as the wire carries it (specs/agent-server.md §8). */
export function approvalReply(agentId: string, approval: PendingApproval) {
  return {
    approval_id: approval.approvalId,
    agent_id: agentId,
    request_id: approval.requestId,
    tool: approval.tool,
    arguments: approval.arguments,
    question: approval.question,
    ...(approval.detail === undefined ? {} : { detail: approval.detail }),
    created_at: approval.createdAt,
    policy_digest: approval.policyDigest,
    ...(approval.packageDigest === undefined ? {} : { package_digest: approval.packageDigest }),
  };
}

/** The answer of `compact`. */
export function compactReply(result: CompactResult) {
  return result.compacted
    ? { compacted: true, tokens_before: result.tokensBefore, tokens_after: result.tokensAfter, tokens_saved: result.tokensSaved }
    : result;
}

/** The answer of `get_messages`: one page of the conversation. */
export function messagesPage(member: PoolMember, params: MethodParams<'get_messages'>) {
  const { offset = 0, limit = 200 } = params;
  const entries = member.agent.messages.flatMap(messageEntries);
  return {
    agent_id: member.id,
    total: entries.length,
    offset,
    limit,
    messages: entries.slice(offset, offset + limit).map((entry, index) => ({ index: offset + index, ...entry })),
  };
}

/** A message as `get_messages` lists it: one entry per text message and per tool result. */
function messageEntries(message: ModelMessage): Array<{ role: string; content: string; tool_call_id?: string; meta?: object }> {
  if (typeof message.content === 'string') return [{ role: message.role, content: message.content }];
  if (message.role === 'tool') {
    return message.content.flatMap((part) =>
      part.type === 'tool-result'
        ? [{ role: 'tool', content: 'value' in part.output ? String(part.output.value) : '', tool_call_id: part.toolCallId }]
        : [],
    );
  }
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const calls = message.content.flatMap((part) =>
    part.type === 'tool-call' ? [{ id: part.toolCallId, name: part.toolName, arguments: part.input }] : [],
  );
  return [{ role: message.role, content: text, ...(calls.length > 0 ? { meta: { tool_calls: calls } } : {}) }];
}

/** `get_context`: the agent's state, with `restore_warnings` when restoring its session repaired it (§9). */
export function contextReply(member: PoolMember) {
  const context = member.agent.context();
  return member.restoreWarnings.length === 0 ? context : { ...context, restore_warnings: member.restoreWarnings };
}

/**
 * Refuses `compact` while a turn of the agent waits for approval (`pausedRequestId`): it would wait
 * in the turns' queue until a person decides, so the caller is told instead.
 */
export function checkCompact(agentId: string, pausedRequestId: string | undefined): void {
  if (pausedRequestId !== undefined)
    throw refuse(`Agent "${agentId}" has a turn (${pausedRequestId}) waiting for approval; compact once it is decided or cancelled.`);
}
