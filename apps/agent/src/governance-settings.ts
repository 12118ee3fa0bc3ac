import { join } from 'node:path';
import { nexusStateDir, type ToolRule } from '@nexus/core';
import { type AuditSettings, DEFAULT_AUDIT_KEEP, DEFAULT_AUDIT_MAX_BYTES } from './audit-log.js';
import type { CommandHookSettings } from './command-hooks.js';
import type { ConfigFile } from './config-file.js';
import type { TelemetrySettings } from './telemetry.js';

/** The governance part of the effective configuration. */
export interface GovernanceSettings {
  /** Ordered rules on tools and their arguments: the working directory's file's first, then the user's. */
  rules: ToolRule[];
  /** Programs asked before and after each call, from the user's file only. */
  hooks: CommandHookSettings;
  /** The audit log, from the user's file only. */
  audit: AuditSettings;
  /** Where traces are exported, from the user's file only. */
  telemetry: TelemetrySettings;
}

/**
 * The governance fields a working-directory file may not set, as field paths: an `allow` rule
 * (a project only narrows — its `deny` and `ask` rules are welcome), `hooks` (programs to run) and
 * `audit` (the user's record of what was done) and `telemetry` (where traces, and the headers, go).
 */
export function governanceWidenings(config: ConfigFile): string[] {
  const allows = (config.rules ?? []).flatMap((rule, index) => (rule.decision === 'allow' ? [`rules[${index}].decision`] : []));
  return [...allows, ...(['hooks', 'audit', 'telemetry'] as const).filter((field) => config[field] !== undefined)];
}

/**
 * Merges the governance fields of the user's and the working directory's files (the audit log
 * lives in the state directory `env` names). The project's
 * rules come first: they may only deny or ask, and the user's `allow` exceptions must not end the
 * search before them.
 */
export function mergeGovernance(user: ConfigFile | undefined, project: ConfigFile | undefined, env: NodeJS.ProcessEnv): GovernanceSettings {
  const { enabled = true, maxBytes = DEFAULT_AUDIT_MAX_BYTES, keep = DEFAULT_AUDIT_KEEP } = user?.audit ?? {};
  return {
    rules: [...(project?.rules ?? []), ...(user?.rules ?? [])],
    hooks: user?.hooks ?? {},
    audit: { enabled, file: join(nexusStateDir(env), 'audit.jsonl'), maxBytes, keep },
    telemetry: user?.telemetry?.otlp ? { otlp: user.telemetry.otlp } : {},
  };
}
