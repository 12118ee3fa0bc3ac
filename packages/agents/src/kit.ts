/*
 * `@nexus/agents/kit`: the agent server's building blocks for another `AgentRuntime` (such as
 * `@nexus/agents-restate`'s), so that every method's params, rules and answers are the ones the
 * local runtime uses — one place for each rule (specs/agent-server.md §10).
 */

export { addUsage, emptyUsage } from './agent-usage.js';
export type { AgentGrant, ParentAgent, PermissionBase } from './child-permissions.js';
export { decideGrant, permissionsOf } from './child-permissions.js';
export type { AssembledMember } from './member-creation.js';
export { callerOf, createdSpec, grantOf, modelOf, newMember } from './member-creation.js';
export type { PoolChange } from './pool-events.js';
export { turnEventChange } from './pool-events.js';
export type { EndedTurn, MemberSpec, PoolMember } from './pool-member.js';
export { ENDED_TURNS_KEPT, isTemporary } from './pool-member.js';
export { closeInterruptedCalls, memberSpecOf, sessionOf } from './pool-sessions.js';
export {
  checkAdmin,
  checkApprover,
  checkDestroy,
  checkOwner,
  checkParentChoice,
  checkSend,
  checkShutdownServer,
  deciderName,
  ownerReached,
} from './requester-policy.js';
export type { MethodName, MethodParams } from './rpc-params.js';
export { methodAt, parseParams } from './rpc-params.js';
export {
  approvalReply,
  checkCompact,
  compactReply,
  contextReply,
  describeMember,
  messagesPage,
  noSuchAgent,
  otherContentRefusal,
  refuse,
  sendReply,
} from './rpc-replies.js';
export { asksWrite } from './run-tool-calls.js';
export type { Session, SessionHeader } from './session-store.js';
