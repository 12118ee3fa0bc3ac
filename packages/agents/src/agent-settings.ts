import { ConfigError, formatSchemaIssues } from '@nexus/core';
import { isLoopbackHost } from '@nexus/core/http';
import { z } from 'zod';

/** The provider packages Nexus speaks through. */
export const PROVIDER_TYPES = ['openai', 'anthropic', 'openai-compatible'] as const;

/** One of {@link PROVIDER_TYPES}. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** Context window assumed for a model whose entry does not give one. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const baseUrlSchema = z.string().superRefine((value, context) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    context.addIssue({ code: 'custom', message: 'Expected an absolute URL' });
    return;
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  context.addIssue({ code: 'custom', message: `Expected an https URL (http only for a loopback address), got "${value}"` });
});

const providerSchema = z
  .strictObject({
    type: z.enum(PROVIDER_TYPES),
    /** Endpoint; required for `openai-compatible`, optional (a proxy) for the others. */
    baseUrl: baseUrlSchema.optional(),
    /** Name of the environment variable holding the API key (never the key itself). */
    apiKeyEnv: z.string().regex(ENV_NAME, 'Expected the name of an environment variable').optional(),
    /** Extra HTTP headers sent with every request. */
    headers: z.record(z.string(), z.string()).optional(),
  })
  .superRefine((provider, context) => {
    if (provider.type === 'openai-compatible' && provider.baseUrl === undefined)
      context.addIssue({ code: 'custom', path: ['baseUrl'], message: 'Required for an openai-compatible provider' });
  });

const modelSchema = z.strictObject({
  provider: z.string().min(1),
  /** The model id the provider knows (`gpt-4.1`, `claude-sonnet-4-5`, `qwen3:8b`). */
  id: z.string().min(1),
  /** Tokens the model can take in one request. */
  contextWindow: z.int().positive().optional(),
  /** Whether strict tool definitions are sent (default: true for `openai`, false otherwise). */
  strictTools: z.boolean().optional(),
  /** Most tokens one answer may have. */
  maxOutputTokens: z.int().positive().optional(),
});

/** Defaults of every agent (`agent` in the config file). */
const agentDefaultsSchema = z.strictObject({
  maxToolIterations: z.int().positive().optional(),
  toolTimeoutSeconds: z.number().positive().optional(),
  compactAt: z.number().gt(0).max(1).optional(),
  systemPrompt: z.string().optional(),
});

/** The LLM part of a configuration: where models are and how agents behave. */
export const agentSettingsSchema = z
  .strictObject({
    providers: z.record(z.string().min(1), providerSchema).optional(),
    models: z.record(z.string().min(1), modelSchema).optional(),
    defaultModel: z.string().min(1).optional(),
    agent: agentDefaultsSchema.optional(),
  })
  .superRefine((settings, context) => {
    for (const [alias, model] of Object.entries(settings.models ?? {})) {
      if (!Object.hasOwn(settings.providers ?? {}, model.provider))
        context.addIssue({ code: 'custom', path: ['models', alias, 'provider'], message: `No provider named "${model.provider}"` });
    }
    if (settings.defaultModel !== undefined && !Object.hasOwn(settings.models ?? {}, settings.defaultModel))
      context.addIssue({ code: 'custom', path: ['defaultModel'], message: `No model named "${settings.defaultModel}"` });
  });

/** Validated LLM settings (see {@link parseAgentSettings}). */
export type AgentSettings = z.infer<typeof agentSettingsSchema>;
/** One entry of `providers`. */
export type ProviderSettings = z.infer<typeof providerSchema>;
/** One entry of `models`. */
export type ModelSettings = z.infer<typeof modelSchema>;
/** The `agent` defaults. */
export type AgentDefaults = z.infer<typeof agentDefaultsSchema>;

/**
 * Validates the LLM settings (`providers`, `models`, `defaultModel`, `agent`); throws a
 * {@link ConfigError} naming every bad field (`` `models.fast.provider`: No provider named "x" ``).
 */
export function parseAgentSettings(value: unknown): AgentSettings {
  const result = agentSettingsSchema.safeParse(value);
  if (!result.success) throw new ConfigError(formatSchemaIssues(result.error.issues));
  return result.data;
}
