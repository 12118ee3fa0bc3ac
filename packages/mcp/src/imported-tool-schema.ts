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
    // Draft-07 servers keep shared schemas under `definitions`; the registry knows them as `$defs`.
    const keyword = original === 'definitions' && node.$defs === undefined ? '$defs' : original;
    // `$schema` names the server's dialect (often draft-07); the registry validates as 2020-12.
    if (!SUPPORTED.has(keyword) || keyword === '$schema') continue;
    if (SCHEMA_MAPS.has(keyword)) {
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

function rewriteDefinitionRefs(schema: unknown): unknown {
  const text = JSON.stringify(schema).replaceAll('"#/definitions/', '"#/$defs/');
  return JSON.parse(text);
}

/**
 * A server's input schema as the registry accepts it: an object schema at the root. An empty or
 * non-object schema becomes `{ type: 'object', properties: {} }`; a root that only combines object
 * schemas (a top-level `anyOf`, `oneOf`, `allOf`) is kept and said to be an object; keywords the
 * registry does not know, and `$schema`, are dropped (the server checks the arguments again itself).
 */
export function normaliseInputSchema(schema: unknown): JsonSchemaObject {
  const empty: JsonSchemaObject = { type: 'object', properties: {} };
  if (!isPlainObject(schema)) return empty;
  const kept = rewriteDefinitionRefs(keepSupported(schema)) as Record<string, unknown>;
  const combines = ['anyOf', 'oneOf', 'allOf'].some((keyword) => Array.isArray(kept[keyword]));
  if (kept.type === 'object' || (kept.type === undefined && (combines || isPlainObject(kept.properties)))) {
    return { ...kept, type: 'object', properties: isPlainObject(kept.properties) ? kept.properties : {} } as JsonSchemaObject;
  }
  return empty;
}
