import { describe, expect, it } from 'vitest';
import { getSafeEnv, isSecretName } from './index.js';

const harmless = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/agent',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TERM: 'xterm',
  TZ: 'UTC',
  TMPDIR: '/tmp',
  USER: 'agent',
  SHELL: '/bin/bash',
};

const hostile: NodeJS.ProcessEnv = {
  ...harmless,
  OPENAI_API_KEY: 'leak-OPENAI_API_KEY',
  ANTHROPIC_API_KEY: 'leak-ANTHROPIC_API_KEY',
  GITHUB_TOKEN: 'leak-GITHUB_TOKEN',
  GITLAB_TOKEN: 'leak-GITLAB_TOKEN',
  GH_TOKEN: 'leak-GH_TOKEN',
  NPM_TOKEN: 'leak-NPM_TOKEN',
  AWS_ACCESS_KEY_ID: 'leak-AWS_ACCESS_KEY_ID',
  AWS_SECRET_ACCESS_KEY: 'leak-AWS_SECRET_ACCESS_KEY',
  AWS_SESSION_TOKEN: 'leak-AWS_SESSION_TOKEN',
  AZURE_CLIENT_SECRET: 'leak-AZURE_CLIENT_SECRET',
  GOOGLE_APPLICATION_CREDENTIALS: 'leak-GOOGLE_APPLICATION_CREDENTIALS',
  DATABASE_PASSWORD: 'leak-DATABASE_PASSWORD',
  PGPASSWORD: 'leak-PGPASSWORD',
  SSH_AUTH_SOCK: 'leak-SSH_AUTH_SOCK',
  DOCKER_AUTH_CONFIG: 'leak-DOCKER_AUTH_CONFIG',
  MY_PRIVATE_KEY: 'leak-MY_PRIVATE_KEY',
  api_key: 'leak-api_key',
  Slack_Webhook_Token: 'leak-Slack_Webhook_Token',
  LC_SECRET_THING: 'leak-LC_SECRET_THING',
  NODE_OPTIONS: 'leak-NODE_OPTIONS',
  LD_PRELOAD: 'leak-LD_PRELOAD',
  GIT_CONFIG_PARAMETERS: 'leak-GIT_CONFIG_PARAMETERS',
  BASH_ENV: 'leak-BASH_ENV',
  PYTHONSTARTUP: 'leak-PYTHONSTARTUP',
};

describe('getSafeEnv', () => {
  it('keeps the harmless variables and drops every secret and code-injection variable', () => {
    const env = getSafeEnv({ source: hostile });
    expect(env).toEqual(harmless);
    expect(Object.values(env).join('\n')).not.toContain('leak');
  });

  it('never lets `allow` or `set` pass a secret-looking name', () => {
    const env = getSafeEnv({ source: hostile, allow: ['GITHUB_TOKEN', 'NODE_OPTIONS'], set: { API_TOKEN: 'x', GIT_TERMINAL_PROMPT: '0' } });
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.API_TOKEN).toBeUndefined();
    expect(env.NODE_OPTIONS).toBe('leak-NODE_OPTIONS');
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
  });

  it('reads process.env by default', () => {
    process.env.NEXUS_TEST_SECRET_TOKEN = 'should-not-pass';
    try {
      expect(getSafeEnv().NEXUS_TEST_SECRET_TOKEN).toBeUndefined();
      expect(getSafeEnv().PATH).toBe(process.env.PATH);
    } finally {
      delete process.env.NEXUS_TEST_SECRET_TOKEN;
    }
  });
});

describe('isSecretName', () => {
  it.each([
    'OPENAI_API_KEY',
    'github_token',
    'DB_PASSWORD',
    'PGPASSWORD',
    'AWS_SECRET_ACCESS_KEY',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'NETRC_AUTH',
    'SESSION_COOKIE',
  ])('flags %s', (name) => {
    expect(isSecretName(name)).toBe(true);
  });
  it.each(['PATH', 'HOME', 'LANG', 'TERM', 'TZ', 'LC_ALL'])('lets %s through', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});
