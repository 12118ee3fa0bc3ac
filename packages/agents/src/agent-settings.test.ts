import { ConfigError } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { parseAgentSettings, resolveModel, summarizeModels } from './index.js';

const settings = parseAgentSettings({
  providers: {
    local: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'LOCAL_LLM_KEY' },
    ollama: { type: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' },
    claude: { type: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' },
    oai: { type: 'openai' },
  },
  models: {
    fast: { provider: 'local', id: 'qwen3:8b', contextWindow: 32768 },
    free: { provider: 'ollama', id: 'llama3' },
    sonnet: { provider: 'claude', id: 'claude-sonnet-4-5', contextWindow: 200000 },
    gpt: { provider: 'oai', id: 'gpt-4.1' },
  },
  defaultModel: 'fast',
  agent: { maxToolIterations: 50, compactAt: 0.8 },
});

function configError(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseAgentSettings', () => {
  it.each([
    [
      { providers: { x: { type: 'openai', baseUrl: 'http://api.example.com/v1' } } },
      /`providers\.x\.baseUrl`: Expected an https URL \(http only for a loopback address\)/,
    ],
    [{ providers: { x: { type: 'openai-compatible' } } }, /`providers\.x\.baseUrl`: Required for an openai-compatible provider/],
    [{ providers: { x: { type: 'gemini' } } }, /`providers\.x\.type`/],
    [{ providers: { x: { type: 'openai', apiKey: 'sk-1' } } }, /`providers\.x\.apiKey` is not a known setting/],
    [
      { providers: { x: { type: 'openai', apiKeyEnv: 'not a name' } } },
      /`providers\.x\.apiKeyEnv`: Expected the name of an environment variable/,
    ],
    [{ models: { m: { provider: 'nowhere', id: 'x' } } }, /`models\.m\.provider`: No provider named "nowhere"/],
    [{ defaultModel: 'ghost' }, /`defaultModel`: No model named "ghost"/],
    [{ agent: { compactAt: 1.5 } }, /`agent\.compactAt`/],
    [{ agent: { maxToolIterations: 0 } }, /`agent\.maxToolIterations`/],
  ])('refuses %j, naming the field', (value, message) => {
    expect(configError(() => parseAgentSettings(value))).toMatch(message);
  });

  it('accepts https anywhere and http on loopback only', () => {
    expect(() => parseAgentSettings({ providers: { a: { type: 'anthropic', baseUrl: 'https://proxy.example.com/v1' } } })).not.toThrow();
    expect(() => parseAgentSettings({ providers: { a: { type: 'openai-compatible', baseUrl: 'http://[::1]:8080/v1' } } })).not.toThrow();
    expect(
      configError(() => parseAgentSettings({ providers: { a: { type: 'openai-compatible', baseUrl: 'http://localhost.evil.com/v1' } } })),
    ).toMatch(/https/);
  });
});

describe('resolveModel', () => {
  it('resolves the default model with its key, window and strictness', () => {
    const model = resolveModel(settings, undefined, { LOCAL_LLM_KEY: 'k' });
    expect(model).toMatchObject({ alias: 'fast', provider: 'local', type: 'openai-compatible', host: '127.0.0.1:11434', id: 'qwen3:8b' });
    expect(model).toMatchObject({ contextWindow: 32768, strictTools: false, keyVariable: 'LOCAL_LLM_KEY' });
  });

  it('sends strict tools to OpenAI by default and not to the others', () => {
    expect(resolveModel(settings, 'gpt', { OPENAI_API_KEY: 'k' }).strictTools).toBe(true);
    expect(resolveModel(settings, 'sonnet', { ANTHROPIC_API_KEY: 'k' }).strictTools).toBe(false);
  });

  it('needs no key for an openai-compatible provider without apiKeyEnv', () => {
    expect(resolveModel(settings, 'free', {}).keyVariable).toBeUndefined();
  });

  it('names the unset key variable, never a value', () => {
    expect(configError(() => resolveModel(settings, 'fast', {}))).toBe(
      'Model "fast" needs an API key: set the environment variable LOCAL_LLM_KEY.',
    );
    expect(configError(() => resolveModel(settings, 'gpt', {}))).toMatch(/OPENAI_API_KEY/);
  });

  it('names the configured aliases for an unknown one', () => {
    expect(configError(() => resolveModel(settings, 'slow', {}))).toBe('Unknown model "slow"; configured: fast, free, sonnet, gpt.');
  });

  it('says how to configure a model when there is none', () => {
    expect(configError(() => resolveModel(parseAgentSettings({}), undefined, {}))).toMatch(/No model is configured/);
  });

  it('redacts the key from any text', () => {
    const model = resolveModel(settings, 'fast', { LOCAL_LLM_KEY: 'sk-secret-value' });
    expect(model.redact('bad key sk-secret-value, really sk-secret-value')).toBe('bad key [redacted], really [redacted]');
  });
});

describe('summarizeModels', () => {
  it('lists aliases with host and whether the key is set, never the key', () => {
    const summary = summarizeModels(settings, { LOCAL_LLM_KEY: 'sk-secret-value' });
    expect(summary).toEqual([
      { alias: 'fast', provider: 'local', type: 'openai-compatible', host: '127.0.0.1:11434', id: 'qwen3:8b', keySet: true, default: true },
      { alias: 'free', provider: 'ollama', type: 'openai-compatible', host: 'localhost:11434', id: 'llama3', keySet: true, default: false },
      {
        alias: 'sonnet',
        provider: 'claude',
        type: 'anthropic',
        host: 'api.anthropic.com',
        id: 'claude-sonnet-4-5',
        keySet: false,
        default: false,
      },
      { alias: 'gpt', provider: 'oai', type: 'openai', host: 'api.openai.com', id: 'gpt-4.1', keySet: false, default: false },
    ]);
    expect(JSON.stringify(summary)).not.toContain('sk-secret-value');
  });
});
