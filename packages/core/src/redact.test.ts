import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

describe('redactSecrets', () => {
  it('hides values under secret-looking names, at any depth', () => {
    expect(redactSecrets({ path: 'a.txt', api_key: 'abc', nested: { Authorization: 'x', list: [{ password: 'p' }] } })).toEqual({
      path: 'a.txt',
      api_key: '[redacted]',
      nested: { Authorization: '[redacted]', list: [{ password: '[redacted]' }] },
    });
  });

  it('hides secret-looking text inside other values: keys, bearer tokens, URL passwords, private keys', () => {
    const command = 'curl -H "Authorization: Bearer eyJhbGciOi.x.y" https://me:hunter2@example.com --data token=glpat-abcdefghij1234567890';
    const redacted = redactSecrets({ command }) as { command: string };
    for (const secret of ['eyJhbGciOi', 'hunter2', 'glpat-abcdefghij']) expect(redacted.command).not.toContain(secret);
    expect(redacted.command).toContain('https://me:[redacted]@example.com');
    expect(redactSecrets('key sk-proj-abcdefghijklmnopqrstuv and ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe(
      'key [redacted] and [redacted]',
    );
    expect(redactSecrets('-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----')).toBe('[redacted]');
    expect(redactSecrets({ count: 3, flag: true, none: null })).toEqual({ count: 3, flag: true, none: null });
  });

  it('hides a secret of every shape wherever it sits in a long text, in any letter case the shape allows', () => {
    const filler = 'the quick brown fox jumps over the lazy dog; '.repeat(200);
    const secrets = {
      'sk-proj-abcdefghijklmnopqrstuv': '[redacted]',
      ghp_abcdefghijklmnopqrstuvwxyz01: '[redacted]',
      gho_abcdefghijklmnopqrstuvwxyz01: '[redacted]',
      ghu_abcdefghijklmnopqrstuvwxyz01: '[redacted]',
      ghs_abcdefghijklmnopqrstuvwxyz01: '[redacted]',
      ghr_abcdefghijklmnopqrstuvwxyz01: '[redacted]',
      github_pat_abcdefghijklmnopqrstuvwxyz: '[redacted]',
      'glpat-abcdefghijklmnop': '[redacted]',
      'xoxb-1234567890-abc': '[redacted]',
      AKIAABCDEFGHIJKLMNOP: '[redacted]',
      AIzaabcdefghijklmnopqrstuvwxyz0123456: '[redacted]',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----': '[redacted]',
      'BEARER abcdef.ghijkl': 'BEARER [redacted]',
      'basic dXNlcjpwYXNz': 'basic [redacted]',
      'Token\tabcdef123456': 'Token [redacted]',
      'HTTPS://me:hunter2@example.com': 'HTTPS://me:[redacted]@example.com',
      'API_TOKEN=abc123': 'API_TOKEN=[redacted]',
      'Private-Key: abc123': 'Private-Key: [redacted]',
      'SECRET="abc 123"': 'SECRET=[redacted]',
      "db_PassWord='abc123'": 'db_PassWord=[redacted]',
      'passwd:abc123': 'passwd:[redacted]',
      'aws_CREDENTIALS=abc123': 'aws_CREDENTIALS=[redacted]',
    };
    for (const [secret, redacted] of Object.entries(secrets)) {
      expect(redactSecrets(`${filler}${secret} ${filler}`), secret).toBe(`${filler}${redacted} ${filler}`);
    }
  });
});
