import { InvalidParametersError, type JsonObject, type JsonValue } from '@nexus/core';

/** Sets `key` in `body` when `value` is worth sending (not `undefined`, `null` or `''`). */
export function setIfPresent(body: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value !== undefined && value !== null && value !== '') body[key] = value;
}

/** Refuses an update with nothing in it, before any request is made. */
export function requireFields(body: JsonObject): JsonObject {
  if (Object.keys(body).length === 0) throw new InvalidParametersError('No fields to update.');
  return body;
}
