import type { JsonSchemaObject } from '@nexus/core';
import { SUPPORTED_KEYWORDS } from '@nexus/registry';

const SUPPORTED = new Set(SUPPORTED_KEYWORDS);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMAS = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops keywords the registry does not accept (annotations a server's schema library adds), at every depth. */
function keepSupported(node: unknown): unknown {
  if (!isPlainObject(node)) return typeof node === 'boolean' ? node : {};
  const kept: Record<string, unknown> = {};
  for (const [original, value] of Object.entries(node)) {
    // Draft-07 servers keep shared schemas under `definitions`: moved to `$defs`, references with them.
    const keyword = original === 'definitions' && node.$defs === undefined ? '$defs' : original;
    if (!SUPPORTED.has(keyword) || keyword === '$schema') continue;
    if (keyword === '$ref') {
      kept[keyword] = typeof value === 'string' ? value.replace(/^#\/definitions\//, '#/$defs/') : value;
    } else if (SCHEMA_MAPS.has(keyword)) {
      kept[keyword] = isPlainObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, keepSupported(child)]))
        : {};
    } else if (SCHEMA_LISTS.has(keyword)) {
      kept[keyword] = Array.isArray(value) ? value.map(keepSupported) : [];
    } else if (SCHEMAS.has(keyword)) {
      kept[keyword] = keepSupported(value);
    } else {
      kept[keyword] = value;
    }
  }
  return kept;
}

/**
 * A server's input schema as the registry accepts it: an object schema at the root. An empty or
 * non-object schema becomes `{ type: 'object', properties: {} }`; a root that only combines object
 * schemas (a top-level `anyOf`, `oneOf`, `allOf`) is kept and said to be an object; keywords the
 * registry does not know are dropped (the server checks the arguments again itself).
 *
 * Every schema becomes 2020-12: `$schema` is dropped and draft-07 `definitions` become `$defs`.
 * The registry would validate a draft-07 schema itself, but refuses other dialects a server may
 * name (draft-04, a URI of its own) and draft-07 schemas with 2020-12 keywords, and gives a
 * schema with `definitions` no strict form; within the keywords kept here the drafts mean the same.
 */
export function normaliseInputSchema(schema: unknown): JsonSchemaObject {
  const empty: JsonSchemaObject = { type: 'object', properties: {} };
  if (!isPlainObject(schema)) return empty;
  const kept = keepSupported(schema) as Record<string, unknown>;
  const combines = ['anyOf', 'oneOf', 'allOf'].some((keyword) => Array.isArray(kept[keyword]));
  if (kept.type === 'object' || (kept.type === undefined && (combines || isPlainObject(kept.properties)))) {
    return { ...kept, type: 'object', properties: isPlainObject(kept.properties) ? kept.properties : {} } as JsonSchemaObject;
  }
  return empty;
}
