import { describe, expect, it } from 'vitest';
import { canonicalJson, policyDigest, resolvePreset, ServiceContainer } from './index.js';

const servicesWith = (options: Parameters<typeof resolvePreset>[1]) =>
  new ServiceContainer().register('permissions', resolvePreset('trusted', options));

describe('canonicalJson', () => {
  it('sorts the keys of every object, at every depth, and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":0,"z":1}]},"b":1}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });
});

describe('policyDigest', () => {
  it('is a hex SHA-256 that equal policies share and any change to the policy changes', () => {
    const digest = policyDigest(servicesWith({ cwd: '/work' }));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(policyDigest(servicesWith({ cwd: '/work' }))).toBe(digest);
    expect(policyDigest(servicesWith({ cwd: '/elsewhere' }))).not.toBe(digest);
    expect(policyDigest(servicesWith({ cwd: '/work', blockedPaths: ['/work/secrets'] }))).not.toBe(digest);
    expect(policyDigest(servicesWith({ cwd: '/work', tools: { bash_safe: { enabled: false } } }))).not.toBe(digest);
    expect(policyDigest(servicesWith({ cwd: '/work' }).register('blockedPaths', ['/work/.env']))).not.toBe(digest);
  });
});
