import { type JsonObject, type JsonValue, type ToolErrorKind, ToolResult } from '@nexus/core';

/** seed 003's states of a run. */
export type SkillState = 'success' | 'pending' | 'error' | 'timeout';

/**
 * seed 003's error types, and the ones Nexus adds for what its table does not name: arguments a
 * program must not get (`ParamInvalid`), refused paths or confirmations (`Forbidden`), a project
 * skill changed since it was trusted (`Untrusted`), a cancelled run (`Cancelled`).
 */
export type SkillErrorType =
  | 'ParamMissing'
  | 'SkillNotFound'
  | 'MetadataMissing'
  | 'RuntimeFailed'
  | 'Timeout'
  | 'ParamInvalid'
  | 'Forbidden'
  | 'Untrusted'
  | 'Cancelled';

/** What the result of one run says. */
export interface SkillOutcome {
  readonly state: SkillState;
  readonly skill: string;
  readonly command: string;
  readonly errorType?: SkillErrorType;
  /** `null` where it depends on the failure (seed 003's `RuntimeFailed`). */
  readonly recoverable?: boolean | null;
  /** The state's own data: output path and size, `required`/`optional`, exit code and stderr, `elapsed`/`limit`. */
  readonly data: JsonObject;
  /** First line after the icon and the skill: what happened, in a few words. */
  readonly summary: string;
  /** Seconds since the call started. */
  readonly seconds: number;
}

const ICONS: Record<SkillState, string> = { success: '✅', pending: '⏸️', error: '❌', timeout: '⏱️' };

const KINDS: Record<SkillErrorType, ToolErrorKind> = {
  ParamMissing: 'invalid_input',
  SkillNotFound: 'not_found',
  MetadataMissing: 'execution_failed',
  RuntimeFailed: 'execution_failed',
  Timeout: 'timeout',
  ParamInvalid: 'invalid_input',
  Forbidden: 'forbidden',
  Untrusted: 'forbidden',
  Cancelled: 'cancelled',
};

/** seed 003's `data` of every result: `{ state, skill, command, error_type?, recoverable?, data, meta }`. */
export function skillResultData(outcome: SkillOutcome, now = new Date()): JsonObject {
  const { state, skill, command, errorType, recoverable, data, seconds } = outcome;
  return {
    state,
    skill,
    command,
    ...(errorType === undefined ? {} : { error_type: errorType }),
    ...(recoverable === undefined ? {} : { recoverable }),
    data,
    meta: { agent: 'skills', time: Math.round(seconds * 100) / 100, ts: now.toISOString().replace(/\.\d{3}Z$/, 'Z') },
  };
}

/** seed 003's two lines: `<icon> skills <skill>: <summary>` and `  state: … | data: {…} | meta: {…}`. */
export function formatSkillResult(data: JsonObject, summary: string): string {
  const icon = ICONS[data.state as SkillState];
  const header = data.error_type === undefined ? `${data.skill}: ${summary}` : `${data.error_type}: ${data.skill}: ${summary}`;
  return `${icon} skills ${header}\n  state: ${data.state} | data: ${JSON.stringify(data.data)} | meta: ${JSON.stringify(data.meta)}`;
}

/**
 * The {@link ToolResult} of a run: success only for `success`; otherwise a failure whose kind
 * follows the error type (`pending` is `invalid_input`). `text` replaces the two lines when a
 * result template rendered them; `data` is always seed 003's.
 */
export function toSkillToolResult(outcome: SkillOutcome, data: JsonObject, text = formatSkillResult(data, outcome.summary)): ToolResult {
  if (outcome.state === 'success') return ToolResult.ok(text, data);
  const kind = outcome.errorType ? KINDS[outcome.errorType] : 'execution_failed';
  const recoverable = typeof outcome.recoverable === 'boolean' ? { recoverable: outcome.recoverable } : {};
  return ToolResult.fail(text, kind, { ...recoverable, data: data as JsonValue });
}
