import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ConfigError } from '@nexus/core';
import type { LanguageModel } from 'ai';
import { type AgentSettings, DEFAULT_CONTEXT_WINDOW, type ProviderSettings, type ProviderType } from './agent-settings.js';

const DEFAULT_KEY_VARIABLE: Partial<Record<ProviderType, string>> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };
const DEFAULT_HOST: Partial<Record<ProviderType, string>> = { openai: 'api.openai.com', anthropic: 'api.anthropic.com' };

/** A configured model alias, ready to call. */
export interface ResolvedModel {
  /** The alias in `models`. */
  readonly alias: string;
  /** The provider's name in `providers`. */
  readonly provider: string;
  readonly type: ProviderType;
  /** The endpoint's host (never a key). */
  readonly host: string;
  /** The model id sent to the provider. */
  readonly id: string;
  readonly contextWindow: number;
  readonly strictTools: boolean;
  readonly maxOutputTokens: number | undefined;
  /** The environment variable the key comes from, if any. */
  readonly keyVariable: string | undefined;
  /** The AI SDK model. */
  readonly model: LanguageModel;
  /** Replaces the API key wherever it occurs in `text` (for error messages from the provider). */
  redact(text: string): string;
}

/** What `nexus models` shows of an alias: never the key, only whether it is set. */
export interface ModelSummary {
  alias: string;
  provider: string;
  type: ProviderType;
  host: string;
  id: string;
  keySet: boolean;
  default: boolean;
}

function keyVariable(provider: ProviderSettings): string | undefined {
  return provider.apiKeyEnv ?? DEFAULT_KEY_VARIABLE[provider.type];
}

function hostOf(provider: ProviderSettings): string {
  return provider.baseUrl === undefined ? (DEFAULT_HOST[provider.type] ?? '') : new URL(provider.baseUrl).host;
}

function entryOf(settings: AgentSettings, alias: string | undefined) {
  const chosen = alias ?? settings.defaultModel;
  const aliases = Object.keys(settings.models ?? {});
  if (chosen === undefined) {
    throw new ConfigError(
      aliases.length === 0
        ? 'No model is configured: add `providers` and `models` to your user config file.'
        : `No model chosen: pass --model (one of ${aliases.join(', ')}) or set \`defaultModel\`.`,
    );
  }
  const model = settings.models?.[chosen];
  if (model === undefined) throw new ConfigError(`Unknown model "${chosen}"; configured: ${aliases.join(', ') || 'none'}.`);
  // parseAgentSettings checked that every model's provider exists.
  const provider = settings.providers?.[model.provider] as ProviderSettings;
  return { alias: chosen, model, provider };
}

/** The configured aliases as `nexus models` lists them. */
export function summarizeModels(settings: AgentSettings, env: NodeJS.ProcessEnv = process.env): ModelSummary[] {
  return Object.entries(settings.models ?? {}).map(([alias, model]) => {
    const provider = settings.providers?.[model.provider] as ProviderSettings;
    const variable = keyVariable(provider);
    return {
      alias,
      provider: model.provider,
      type: provider.type,
      host: hostOf(provider),
      id: model.id,
      keySet: variable === undefined || Boolean(env[variable]),
      default: alias === settings.defaultModel,
    };
  });
}

function createModel(provider: ProviderSettings, name: string, id: string, apiKey: string | undefined): LanguageModel {
  const { baseUrl: baseURL, headers } = provider;
  switch (provider.type) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL, headers }).chat(id);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL, headers })(id);
    case 'openai-compatible':
      return createOpenAICompatible({ name, apiKey, baseURL: baseURL as string, headers, includeUsage: true }).chatModel(id);
  }
}

/**
 * Resolves a model alias (default: `defaultModel`) to a callable model. The API key is read from
 * the environment variable the provider names and goes nowhere but the provider's requests.
 * Throws a {@link ConfigError} for an unknown alias or an unset key, naming the variable.
 */
export function resolveModel(settings: AgentSettings, alias?: string, env: NodeJS.ProcessEnv = process.env): ResolvedModel {
  const { alias: chosen, model, provider } = entryOf(settings, alias);
  const variable = keyVariable(provider);
  const apiKey = variable === undefined ? undefined : env[variable];
  if (variable !== undefined && !apiKey) {
    throw new ConfigError(`Model "${chosen}" needs an API key: set the environment variable ${variable}.`);
  }
  return {
    alias: chosen,
    provider: model.provider,
    type: provider.type,
    host: hostOf(provider),
    id: model.id,
    contextWindow: model.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    strictTools: model.strictTools ?? provider.type === 'openai',
    maxOutputTokens: model.maxOutputTokens,
    keyVariable: variable,
    model: createModel(provider, model.provider, model.id, apiKey),
    redact: (text) => (apiKey ? text.split(apiKey).join('[redacted]') : text),
  };
}
