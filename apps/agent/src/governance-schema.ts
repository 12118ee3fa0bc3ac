import { RULE_DECISIONS, type RuleDecision } from '@nexus/core';
import { z } from 'zod';

/** One governance rule (`rules` of the config file, and of an `auth.users` entry). */
export const ruleSchema = z.strictObject({
  tool: z.string().min(1),
  /** Glob per argument name; path arguments are resolved against the working directory first. */
  match: z.record(z.string().min(1), z.string()).optional(),
  decision: z.enum(RULE_DECISIONS as [RuleDecision, ...RuleDecision[]]),
  reason: z.string().optional(),
});

const hookSchema = z.strictObject({
  /** The program and its arguments, run without a shell. */
  command: z.array(z.string().min(1)).min(1),
  tools: z.array(z.string().min(1)).optional(),
  timeoutSeconds: z.number().positive().max(3600).optional(),
});

/**
 * The config file's governance fields (see `nexus help config`): `rules` — ordered allow / ask /
 * deny entries by tool and argument patterns, decided in the registry's pipeline; `hooks` — programs
 * asked before and after each call; `audit` — the audit log; `telemetry` — where traces go.
 */
export const governanceFields = {
  rules: z.array(ruleSchema).optional(),
  hooks: z.strictObject({ beforeCall: z.array(hookSchema).optional(), afterCall: z.array(hookSchema).optional() }).optional(),
  audit: z
    .strictObject({ enabled: z.boolean().optional(), maxBytes: z.int().min(256).optional(), keep: z.int().min(0).max(100).optional() })
    .optional(),
  telemetry: z
    .strictObject({
      otlp: z.strictObject({ endpoint: z.url({ protocol: /^https?$/ }), headers: z.record(z.string(), z.string()).optional() }).optional(),
    })
    .optional(),
};
