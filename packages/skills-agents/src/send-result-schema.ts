import type { JsonSchemaObject } from '@nexus/core';

/**
 * What the agent server's `send` answers (specs/agent-server.md §3): the agent's answer
 * `{ content, request_id, halted_at_iteration_limit }`, or `{ cancelled: true, request_id }`.
 * `nexus_send`'s data, and `nexus_create`'s `response`.
 */
export const SEND_RESULT_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    content: { type: 'string' },
    request_id: { type: ['string', 'integer'] },
    halted_at_iteration_limit: { type: 'boolean' },
    cancelled: { const: true },
  },
  required: ['request_id'],
};
