import { ConfigError } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { parseGitLabSettings } from './index.js';

const work = { url: 'https://gitlab.example.com/', tokenEnv: 'WORK_GITLAB_TOKEN' };

function problem(settings: unknown): string {
  try {
    parseGitLabSettings(settings);
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseGitLabSettings', () => {
  it('fills in defaults, strips the trailing slash and defaults to the first instance', () => {
    const settings = parseGitLabSettings({ instances: { work, public: { url: 'https://gitlab.com', token: 'glpat-x' } } });
    expect(settings.instances.work?.url).toBe('https://gitlab.example.com');
    expect(settings.defaultInstance).toBe('work');
    expect(settings).toMatchObject({ timeoutMs: 30_000, retries: 3, retryDelayMs: 1_000, maxRetryAfterSeconds: 60, maxLogBytes: 65_536 });
  });

  it('accepts private-network and loopback URLs with a path prefix', () => {
    const settings = parseGitLabSettings({
      instances: { lab: { url: 'http://10.0.0.5:8080/gitlab', tokenFile: '~/.gitlab-token' } },
      defaultInstance: 'lab',
    });
    expect(settings.instances.lab?.url).toBe('http://10.0.0.5:8080/gitlab');
  });

  it('rejects unknown keys at both levels, naming them', () => {
    expect(problem({ instances: { work: { ...work, tokne: 'x' } } })).toBe(
      'Invalid GitLab settings: `instances.work.tokne` is not a known setting.',
    );
    expect(problem({ instances: { work }, defaultinstance: 'work' })).toBe(
      'Invalid GitLab settings: `defaultinstance` is not a known setting.',
    );
  });

  it('requires a default instance that exists', () => {
    expect(problem({ instances: { work }, defaultInstance: 'home' })).toMatch(
      /`defaultInstance`: Expected the name of a configured instance \(work\), got "home"/,
    );
  });

  it('requires at least one instance and a token source for each', () => {
    expect(problem({ instances: {} })).toMatch(/`instances`: Expected at least one instance/);
    expect(problem({ instances: { work: { url: 'https://gitlab.example.com' } } })).toMatch(
      /Expected one of `token`, `tokenEnv` or `tokenFile`/,
    );
  });

  it('refuses URLs that are not http(s), carry credentials or a query — without quoting them', () => {
    expect(problem({ instances: { work: { ...work, url: 'file:///etc/passwd' } } })).toMatch(/scheme "file:"/);
    const message = problem({ instances: { work: { ...work, url: 'https://user:glpat-secret@gitlab.example.com' } } });
    expect(message).toMatch(/without credentials/);
    expect(message).not.toContain('glpat-secret');
    expect(problem({ instances: { work: { ...work, url: 'https://gitlab.example.com/?a=1' } } })).toMatch(/without a query/);
    expect(problem({ instances: { work: { ...work, url: 'not a url' } } })).toMatch(/absolute http or https URL/);
  });

  it('requires an absolute token file and a valid variable name', () => {
    expect(problem({ instances: { work: { url: work.url, tokenFile: 'token.txt' } } })).toMatch(
      /`instances.work.tokenFile`: Expected an absolute path/,
    );
    expect(problem({ instances: { work: { url: work.url, tokenEnv: 'A-B' } } })).toMatch(
      /`instances.work.tokenEnv`: Expected an environment variable name/,
    );
  });

  it('reports type errors by field', () => {
    expect(problem({ instances: { work }, timeoutMs: -1 })).toMatch(/`timeoutMs`/);
    expect(problem({ instances: { work: { ...work, userId: 'me' } } })).toMatch(/`instances.work.userId`/);
    expect(problem(null)).toMatch(/Invalid GitLab settings/);
  });
});
