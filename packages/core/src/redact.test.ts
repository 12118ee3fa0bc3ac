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
});
