import type { JsonSchema } from '@nexus/core';

/** Compact JSON Schema builders for skill parameters (descriptions only where a name is not enough). */

export function text(description?: string): JsonSchema {
  return description ? { type: 'string', description } : { type: 'string' };
}

export function integer(description?: string, minimum = 1): JsonSchema {
  return description ? { type: 'integer', minimum, description } : { type: 'integer', minimum };
}

export function flag(description?: string): JsonSchema {
  return description ? { type: 'boolean', description } : { type: 'boolean' };
}

export function texts(description?: string): JsonSchema {
  return description ? { type: 'array', items: { type: 'string' }, description } : { type: 'array', items: { type: 'string' } };
}

export function choice(values: readonly string[], description?: string): JsonSchema {
  return description ? { type: 'string', enum: [...values], description } : { type: 'string', enum: [...values] };
}

/** Default page size of list actions with a `limit`. */
export const DEFAULT_LIMIT = 20;

/** The `limit` parameter of list actions. */
export const limit: JsonSchema = { type: 'integer', minimum: 1, maximum: 1000, description: `Max items (default ${DEFAULT_LIMIT})` };

/** `YYYY-MM-DD` dates. */
export const date: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' };

/** Job statuses accepted by job list filters (`gitlab_job`, `gitlab_pipeline` jobs). */
export const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'manual'];

/** `[{key, value}]` CI variables for pipelines and manual jobs. */
export const keyValues: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { key: { type: 'string' }, value: { type: 'string' } },
    required: ['key', 'value'],
    additionalProperties: false,
  },
};
