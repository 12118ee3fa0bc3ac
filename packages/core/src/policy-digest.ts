import { createHash } from 'node:crypto';
import type { ServiceContainer } from './service-container.js';

/**
 * `value` as JSON with every object's keys in sorted order, so two values that differ only in key
 * order give the same text (what a digest or a comparison of arguments needs).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * A lowercase hex SHA-256 of everything that decides a call under these services: the
 * permissions (level, read and write roots, blocked paths, per-tool settings, disabled tools, and
 * whatever else the policy holds) and the blocked paths registered beside them. Equal policies
 * give equal digests; a change to any of it changes the digest — an approval asked under one
 * policy is stale under another.
 */
export function policyDigest(services: ServiceContainer): string {
  const policy = { permissions: services.getPermissions() ?? null, blockedPaths: services.getBlockedPaths() };
  return createHash('sha256').update(canonicalJson(policy)).digest('hex');
}
