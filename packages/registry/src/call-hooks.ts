import type { PermissionLevel, ToolResult } from '@nexus/core';
import type { AuditSink } from './audit-record.js';

/** Who is calling, as the surface that took the call established it (never what the call claims). */
export interface CallerIdentity {
  /** The holder of the token an HTTP surface checked (its subject or a digest of it). */
  tokenHolder?: string;
  /** The agent making the call. */
  agentId?: string;
  /** The agents above it, its parent first. */
  ancestry?: readonly string[];
  /** The MCP client, by the name it gave. */
  mcpClient?: string;
}

/** A call as hooks, the audit log and traces see it. */
export interface CallInfo {
  tool: string;
  /** The validated arguments (defaults applied), as the skill will get them. */
  arguments: Record<string, unknown>;
  /** The agent's working directory. */
  cwd: string;
  /** The policy's permission level (`sandboxed` without one). */
  level: PermissionLevel;
  caller?: CallerIdentity;
}

/**
 * A `beforeCall` hook's answer: `deny` refuses the call with `reason`; `allow` lets it go on to the
 * rules and the rest of the policy (it never widens them), with `arguments` in place of the call's
 * when given — validated again as the call's were. `undefined` is `allow`.
 */
export interface BeforeCallAnswer {
  decision: 'allow' | 'deny';
  reason?: string;
  arguments?: Record<string, unknown>;
}

/** Runs before a call's rules and confirmation, after its validation. A hook that throws denies the call. */
export type BeforeCallHook = (
  call: CallInfo,
  context: { signal?: AbortSignal },
) => BeforeCallAnswer | undefined | Promise<BeforeCallAnswer | undefined>;

/** Runs once a call has a result: returns a result to use instead (a redacted one), or `undefined` to keep it. */
export type AfterCallHook = (call: CallInfo, result: ToolResult) => ToolResult | undefined | Promise<ToolResult | undefined>;

/** The hooks of a registry (`SkillRegistryOptions`), one or a list of each, run in order. */
export interface CallHooks {
  beforeCall?: BeforeCallHook | readonly BeforeCallHook[];
  afterCall?: AfterCallHook | readonly AfterCallHook[];
  /** Gets the audit record of every call, once it has its result (see `AuditRecord`). */
  onAudit?: AuditSink | readonly AuditSink[];
}

declare module '@nexus/core' {
  interface Services {
    /**
     * Hooks every registry built on these services runs, after its own (`SkillRegistryOptions`): how
     * an application reaches registries it does not build itself (its agents').
     */
    callHooks: CallHooks;
  }
}

/** The hooks of a registry's options and of its `callHooks` service, as lists. */
export interface HookLists {
  readonly beforeCall: readonly BeforeCallHook[];
  readonly afterCall: readonly AfterCallHook[];
  readonly onAudit: readonly AuditSink[];
}

/** The hook lists of `own` followed by those of `served`. */
export function joinHooks(own: CallHooks, served: CallHooks | undefined): HookLists {
  return {
    beforeCall: [...hookList(own.beforeCall), ...hookList(served?.beforeCall)],
    afterCall: [...hookList(own.afterCall), ...hookList(served?.afterCall)],
    onAudit: [...hookList(own.onAudit), ...hookList(served?.onAudit)],
  };
}

/** A list of hooks from one, a list, or none. */
export function hookList<Hook>(hooks: Hook | readonly Hook[] | undefined): readonly Hook[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks as Hook];
}

/** A hook as an audit record names it: `beforeCall hook "check-call"`, by its own name when it has one. */
export function hookLabel(hook: { name: string }, kind: 'beforeCall' | 'afterCall'): string {
  return hook.name && hook.name !== kind ? `${kind} hook "${hook.name}"` : `${kind} hook`;
}

/** A hook as a message names it: `the beforeCall hook "check-call"`, else `a beforeCall hook`. */
export function describeHook(hook: { name: string }, kind: 'beforeCall' | 'afterCall'): string {
  return hook.name && hook.name !== kind ? `the ${hookLabel(hook, kind)}` : `${kind === 'afterCall' ? 'an' : 'a'} ${kind} hook`;
}
