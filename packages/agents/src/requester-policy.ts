import type { PermissionLevel, ToolRule } from '@nexus/core';
import type { PoolMember } from './pool-member.js';
import { refuse } from './rpc-replies.js';

/**
 * Who makes a call: the static token's holder (an HTTP client), a person an OpenID issuer vouches
 * for (an HTTP client with their own token: their agents only, unless `admin`; within their
 * `ceiling`, `blockedPaths` and `rules`), or an agent of the pool (its skills, in-process).
 */
export type Requester =
  | { readonly kind: 'token-holder' }
  | {
      readonly kind: 'user';
      readonly subject: string;
      readonly admin: boolean;
      readonly ceiling?: PermissionLevel;
      readonly blockedPaths?: readonly string[];
      readonly rules?: readonly ToolRule[];
    }
  | { readonly kind: 'agent'; readonly id: string };

/** The token holder: every HTTP request is theirs (an `X-Nexus-Agent` header is never believed). */
export const TOKEN_HOLDER: Requester = { kind: 'token-holder' };

/*
 * Who may do what to whom (specs/agent-server.md §5), given the requesting agent (`undefined`:
 * the token holder). A refusal throws a `-32602` error saying why. Which permissions a new agent
 * gets is decided in child-permissions.ts.
 */

/** A person who is not an admin (`undefined` for everyone else). */
function personOnly(requester: Requester): string | undefined {
  return requester.kind === 'user' && !requester.admin ? requester.subject : undefined;
}

/**
 * Whose agents a requester reaches: a person who is not an admin only their own, an agent only
 * those of its owner (when a person owns it); `undefined` means every agent.
 */
export function ownerReached(requester: Requester, requesting: Pick<PoolMember, 'grant'> | undefined): string | undefined {
  return requester.kind === 'user' ? personOnly(requester) : requesting?.grant.owner;
}

/** Another person's agent is out of reach: not sent to, read, approved for or destroyed (an admin and the token holder reach all). */
export function checkOwner(
  requester: Requester,
  requesting: Pick<PoolMember, 'grant'> | undefined,
  target: { id: string; owner: string | undefined },
): void {
  const owner = ownerReached(requester, requesting);
  if (owner !== undefined && target.owner !== owner) throw refuse(`Agent "${target.id}" is not yours (${owner}).`);
}

/** What only the token holder and admins may do: the server's shutdown and the tools playground. */
export function checkAdmin(requester: Requester, what: string): void {
  const person = personOnly(requester);
  if (person !== undefined) throw refuse(`"${person}" may not ${what}: that is for admins.`);
}

/** A sandboxed agent may not shut the server down. */
export function checkShutdownServer(requesting: PoolMember | undefined): void {
  if (requesting?.permissions.level === 'sandboxed') throw refuse('A sandboxed agent may not shut the server down.');
}

/** An agent names only itself as the parent of what it creates. */
export function checkParentChoice(requesting: PoolMember | undefined, parentId: string): void {
  if (requesting && parentId !== requesting.id)
    throw refuse(`Agent "${requesting.id}" may create only its own children, not children of "${parentId}".`);
}

/** No agent sends to itself; a sandboxed agent sends only to its parent. */
export function checkSend(requesting: PoolMember | undefined, target: PoolMember): void {
  if (requesting?.id === target.id) throw refuse(`Agent "${target.id}" may not send to itself.`);
  if (requesting?.permissions.level === 'sandboxed' && requesting.parentId !== target.id)
    throw refuse(`Agent "${requesting.id}" is sandboxed and may send only to its parent.`);
}

/** An agent destroys only itself and its own children. */
export function checkDestroy(requester: Requester, target: PoolMember): void {
  if (requester.kind === 'agent' && requester.id !== target.id && target.parentId !== requester.id)
    throw refuse(`Agent "${requester.id}" may destroy only itself and its own children, not "${target.id}".`);
}

/**
 * An agent's approvals are seen and decided by the token holder and the agent's ancestors — never
 * by the agent itself (nor its children or any other agent), so no agent approves its own calls.
 */
export function checkApprover(requester: Requester, targetId: string, ancestors: readonly string[]): void {
  if (requester.kind !== 'agent') return;
  if (requester.id === targetId) throw refuse(`Agent "${targetId}" may not see or decide its own approvals.`);
  if (!ancestors.includes(requester.id))
    throw refuse(`Agent "${requester.id}" may see and decide approvals of its descendants only, not of "${targetId}".`);
}

/** How the model is told who decided: `token holder`, the person, or the ancestor agent. */
export function deciderName(requester: Requester): string {
  if (requester.kind === 'user') return `user "${requester.subject}"`;
  return requester.kind === 'token-holder' ? 'token holder' : `agent "${requester.id}"`;
}
