import { createHash } from 'node:crypto';
import {
  type AgentPermissions,
  policyDigest,
  type RuleDecision,
  redactSecrets,
  type ServiceContainer,
  type ToolErrorKind,
  type ToolResult,
} from '@nexus/core';
import type { CallerIdentity } from './call-hooks.js';

/** Who answered a confirmation the policy asked for. */
export type ConfirmedBy = 'caller' | 'confirm service' | 'yolo level' | 'nobody';

/** One call as the audit log keeps it: who, what, what was decided and by what, and how it ended. */
export interface AuditRecord {
  /** When the call started (ISO 8601). */
  time: string;
  tool: string;
  /** The id the model gave the call, when an agent made it (`ExecuteOptions.toolCallId`). */
  toolCallId?: string;
  /** Who called, as the surface that took the call established it. */
  caller?: CallerIdentity;
  /** The arguments with secrets redacted and long values replaced by their digest. */
  arguments: unknown;
  decision: RuleDecision;
  /** What made the decision: `preset`, `rule 3`, a hook (`beforeCall hook "/usr/local/bin/check"`), `validation`, `lookup`. */
  decidedBy: string;
  /** The rule's or hook's reason, or why the gate refused. */
  reason?: string;
  /** The confirmation asked for, whether it was given and who answered. */
  confirmation?: { given: boolean; by: ConfirmedBy };
  /** A SHA-256 of the permission policy the call was decided under (`policyDigest`). */
  policyDigest: string;
  /** The SHA-256 of the skill package a package tool comes from. */
  packageDigest?: string;
  /**
   * How the call's command was isolated (`bubblewrap`, `none`), where its result says so
   * (`data.sandboxed` of `@nexus/process`'s runs); an application may add its own for other calls.
   */
  isolation?: string;
  /** `ok`, or the failed result's kind. */
  result: 'ok' | ToolErrorKind;
  /** From the call's start to its result, in ms. */
  durationMs: number;
}

/**
 * Receives every call's record after the caller has the call's result: the records are made and
 * handed over on the event loop's next turn (`SkillRegistry.deliverAuditRecords` does it at once),
 * off the call's path. Must return quickly (write elsewhere, later).
 */
export type AuditSink = (record: AuditRecord) => void;

/** Strings longer than this are kept as their digest and length. */
export const MAX_AUDITED_STRING = 1024;

function digestLongValues(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length <= MAX_AUDITED_STRING) return value;
    return { sha256: createHash('sha256').update(value).digest('hex'), length: value.length };
  }
  if (Array.isArray(value)) return value.map(digestLongValues);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, digestLongValues(inner)]));
  return value;
}

let isoSecond = Number.NaN;
let isoSecondText = '';

/** `new Date(ms).toISOString()`, the text up to the second made once a second: the calls of a busy server share it. */
function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoSecondText = new Date(second * 1000).toISOString().slice(0, -4);
  }
  return `${isoSecondText}${String(ms - second * 1000).padStart(3, '0')}Z`;
}

/** What the pipeline learnt about one call on its way, for the audit record and the trace span. */
export class CallTrail {
  readonly startedAt = Date.now();
  readonly started = performance.now();
  /** The arguments as they reached the decision (validated, maybe rewritten by a hook). */
  arguments: Record<string, unknown>;
  decision: RuleDecision = 'allow';
  decidedBy = 'preset';
  reason: string | undefined;
  confirmation: AuditRecord['confirmation'];
  packageDigest: string | undefined;

  constructor(
    readonly tool: string,
    args: Record<string, unknown>,
    readonly caller: CallerIdentity | undefined,
    readonly toolCallId: string | undefined,
  ) {
    this.arguments = args;
  }

  /** Notes a decision and what made it. */
  decide(decision: RuleDecision, decidedBy: string, reason?: string): void {
    this.decision = decision;
    this.decidedBy = decidedBy;
    this.reason = reason;
  }
}

const policyDigests = new WeakMap<AgentPermissions, { blocked: unknown; digest: string }>();

/** `policyDigest(services)`, computed once per policy object. */
export function cachedPolicyDigest(services: ServiceContainer): string {
  const permissions = services.getPermissions();
  const blocked = services.get('blockedPaths');
  if (!permissions) return policyDigest(services);
  const cached = policyDigests.get(permissions);
  if (cached && cached.blocked === blocked) return cached.digest;
  const digest = policyDigest(services);
  policyDigests.set(permissions, { blocked, digest });
  return digest;
}

/** How the command of a call was isolated, when its result carries a run (`data.sandboxed`). */
export function isolationOf(result: ToolResult): 'bubblewrap' | 'none' | undefined {
  const sandboxed = (result.data as { sandboxed?: unknown } | undefined)?.sandboxed;
  return typeof sandboxed === 'boolean' ? (sandboxed ? 'bubblewrap' : 'none') : undefined;
}

/** A call that has its result, as its audit record will tell it: taken when it ended, so nothing changed later reaches the record. */
export interface EndedCall {
  readonly trail: CallTrail;
  readonly result: ToolResult;
  /** The arguments with secrets redacted: a copy, not the caller's or the skill's object. */
  readonly arguments: unknown;
  readonly policyDigest: string;
  readonly durationMs: number;
}

/** `trail`'s call, ended now with `result` under the policy of `services`. */
export function endedCall(trail: CallTrail, result: ToolResult, services: ServiceContainer): EndedCall {
  return {
    trail,
    result,
    arguments: redactSecrets(trail.arguments),
    policyDigest: cachedPolicyDigest(services),
    durationMs: Math.round((performance.now() - trail.started) * 1000) / 1000,
  };
}

/** The audit record of an ended call. */
export function auditRecordOf({ trail, result, arguments: args, policyDigest, durationMs }: EndedCall): AuditRecord {
  return {
    time: isoTime(trail.startedAt),
    tool: trail.tool,
    ...(trail.toolCallId ? { toolCallId: trail.toolCallId } : {}),
    ...(trail.caller ? { caller: trail.caller } : {}),
    arguments: digestLongValues(args),
    decision: trail.decision,
    decidedBy: trail.decidedBy,
    ...(trail.reason ? { reason: redactSecrets(trail.reason) as string } : {}),
    ...(trail.confirmation ? { confirmation: trail.confirmation } : {}),
    policyDigest,
    ...(trail.packageDigest ? { packageDigest: trail.packageDigest } : {}),
    ...(isolationOf(result) ? { isolation: isolationOf(result) } : {}),
    result: result.success ? 'ok' : (result.kind ?? 'execution_failed'),
    durationMs,
  };
}
