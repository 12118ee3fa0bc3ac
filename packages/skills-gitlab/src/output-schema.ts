import type { JsonSchema, JsonSchemaObject } from '@nexus/core';
import { isMutatingAction } from './action-kinds.js';

/**
 * A GitLab object with the fields every GitLab version sends; open, since GitLab adds fields from
 * version to version and an instance's answer is not ours to close.
 */
export function objectWith(...fields: string[]): JsonSchemaObject {
  return fields.length > 0 ? { type: 'object', required: fields } : { type: 'object' };
}

/** A list of GitLab objects, each with `fields`. */
export function listOf(...fields: string[]): JsonSchema {
  return { type: 'array', items: objectWith(...fields) };
}

/** The answer of a request GitLab answers without a body (`204 No Content`). */
export const NOTHING: JsonSchema = { type: 'null' };

/** The answer of a request GitLab may answer with an object or with no body, depending on its version. */
export const MAYBE_OBJECT: JsonSchema = { type: ['object', 'null'] };

const DRY_RUN_PROPERTIES: Record<string, JsonSchema> = {
  dry_run: { const: true },
  requests: {
    type: 'array',
    items: {
      type: 'object',
      properties: { method: { type: 'string' }, url: { type: 'string' }, body: { type: 'object' } },
      required: ['method', 'url'],
      additionalProperties: false,
    },
  },
  effects: { type: 'array', items: { type: 'string' } },
};

const PLANNED = { required: Object.keys(DRY_RUN_PROPERTIES) };

/**
 * The outputSchema of a GitLab skill: `{ action, result }`, where `result` is what GitLab answered
 * (an object, a list or `null`) and its shape is the one the action declares, or, for a mutating
 * action's `dry_run`, `{ action, dry_run: true, requests, effects }`. One tool serves many actions,
 * so the envelope names the action and `result` may be a list, which an MCP object root could not.
 */
export function gitlabOutputSchema(actions: Record<string, { result?: JsonSchema }>): JsonSchemaObject {
  const names = Object.keys(actions);
  const plans = names.some(isMutatingAction);
  return {
    type: 'object',
    properties: {
      action: { type: 'string', enum: names },
      result: { description: "GitLab's answer: the object(s) the action returned, or null" },
      ...(plans ? DRY_RUN_PROPERTIES : {}),
    },
    required: ['action'],
    additionalProperties: false,
    anyOf: Object.entries(actions).map(([name, { result = {} }]) => {
      const ran = { required: ['result'], properties: { action: { const: name }, result } };
      return isMutatingAction(name) ? { properties: { action: { const: name } }, anyOf: [ran, PLANNED] } : ran;
    }),
  };
}
