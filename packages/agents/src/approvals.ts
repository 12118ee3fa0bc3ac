import { type ConfirmationRequest, type ConfirmFunction, canonicalJson, confirmationCovers } from '@nexus/core';
import { failedOutcome, type RequestedToolCall, type ToolCallOutcome } from './run-tool-calls.js';

/**
 * A tool call waiting for a person (specs/agent-server.md §8): the exact call, the question its
 * confirmation asked, and the policy it was asked under. It carries no secret: only what the model
 * sent and what the skill asked.
 */
export interface PendingApproval {
  readonly approvalId: string;
  /** The turn that waits. */
  readonly requestId: string;
  /** The model's id of the call. */
  readonly toolCallId: string;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  /** The confirmation's own words (the path, the command). */
  readonly question: string;
  /** The confirmation's longer detail (a diff, a request body), when it gave one. */
  readonly detail?: string;
  /** The confirmation asked: what approving grants. */
  readonly request: ConfirmationRequest;
  readonly createdAt: string;
  /** `policyDigest` of the agent's services when it was asked. */
  readonly policyDigest: string;
  /** The trust hash of the skill package the tool comes from, for package tools. */
  readonly packageDigest?: string;
}

/** A person's answer to a {@link PendingApproval}. */
export interface ApprovalDecision {
  decision: 'approve' | 'deny';
  /** Approve later calls of the same tool with the same arguments and question, for the agent's lifetime. */
  remember?: boolean;
  /** Why, told to the model with a denial. */
  note?: string;
  /** Who decided, as the model is told (default `the user`). */
  by?: string;
}

/** How a decision was taken: `stale` when the policy or the package changed since the question was asked (the call is not run). */
export type ApprovalStatus = 'approved' | 'denied' | 'stale';

/** An approval remembered for the agent's lifetime (`remember: true`), kept in its session. */
export interface RememberedApproval {
  readonly tool: string;
  /** The arguments as canonical JSON (keys sorted). */
  readonly arguments: string;
  readonly request: ConfirmationRequest;
}

/** A decision as the paused turn applies it. */
export interface TakenDecision {
  readonly approval: PendingApproval;
  readonly status: ApprovalStatus;
  readonly decision: ApprovalDecision;
  /** Why it is stale. */
  readonly staleReason?: string;
}

/** The approval a paused call asks for. */
export function approvalFor(
  call: RequestedToolCall,
  request: ConfirmationRequest,
  context: { approvalId: string; requestId: string; createdAt: string; policyDigest: string; packageDigest: string | undefined },
): PendingApproval {
  return {
    approvalId: context.approvalId,
    requestId: context.requestId,
    toolCallId: call.id,
    tool: call.name,
    arguments: call.arguments ?? {},
    question: request.action,
    ...(request.detail === undefined ? {} : { detail: request.detail }),
    request,
    createdAt: context.createdAt,
    policyDigest: context.policyDigest,
    ...(context.packageDigest === undefined ? {} : { packageDigest: context.packageDigest }),
  };
}

/** What the model is told of a call that was denied or whose approval went stale; `undefined` when it was approved. */
export function decidedOutcome(call: RequestedToolCall, taken: TakenDecision): ToolCallOutcome | undefined {
  if (taken.status === 'approved') return undefined;
  if (taken.status === 'stale')
    return failedOutcome(call, 'forbidden', `the approval of this ${call.name} call is stale: ${taken.staleReason}; it was not run.`);
  const { by = 'the user', note } = taken.decision;
  return failedOutcome(call, 'forbidden', `denied by ${by}${note ? `: ${note}` : '.'}`);
}

/** What a remembered approval of `approval` holds. */
export function rememberedFrom(approval: PendingApproval): RememberedApproval {
  return { tool: approval.tool, arguments: canonicalJson(approval.arguments), request: approval.request };
}

/**
 * The confirmation function of one call of a turn that nobody answers at once: a request approved
 * for this call (`granted`) or remembered for the same tool, arguments and question is approved;
 * any other is noted in `asked` and refused — the turn then pauses at this call instead of telling
 * the model it was refused.
 */
export function pausingConfirm(
  call: RequestedToolCall,
  granted: readonly ConfirmationRequest[],
  remembered: readonly RememberedApproval[],
): { confirm: ConfirmFunction; asked: ConfirmationRequest[] } {
  const asked: ConfirmationRequest[] = [];
  const args = canonicalJson(call.arguments ?? {});
  const confirm: ConfirmFunction = (request) => {
    if (granted.some((approved) => confirmationCovers(approved, request))) return true;
    if (remembered.some((entry) => entry.tool === call.name && entry.arguments === args && confirmationCovers(entry.request, request)))
      return true;
    asked.push(request);
    return false;
  };
  return { confirm, asked };
}
