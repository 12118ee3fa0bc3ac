import type { JsonValue } from '@nexus/core';

/** What a secret is replaced with in anything a skill returns. */
export const MASK = '****';

/** The spellings of a secret that can show up in text: as is, and percent-encoded. */
export function secretVariants(secret: string | undefined): string[] {
  if (!secret || secret.length < 4) return [];
  return [...new Set([secret, encodeURIComponent(secret)])].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of each secret in `text`. */
function maskText(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) masked = masked.replaceAll(secret, MASK);
  return masked;
}

/**
 * Copies a JSON value with every secret masked inside strings, and the value of every property
 * named in `keys` (at any depth) replaced by {@link MASK}.
 */
export function maskJson(value: JsonValue, secrets: readonly string[], keys: ReadonlySet<string> = new Set()): JsonValue {
  if (typeof value === 'string') return maskText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => maskJson(item, secrets, keys));
  if (value === null || typeof value !== 'object') return value;
  const copy: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = keys.has(key) && item !== null && item !== '' ? MASK : maskJson(item, secrets, keys);
  }
  return copy;
}
