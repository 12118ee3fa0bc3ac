import { describe, expect, it } from 'vitest';
import { normaliseInputSchema } from './imported-tool-schema.js';

describe('normaliseInputSchema', () => {
  it('moves draft-07 definitions to $defs and points the references there, leaving values that only look like references', () => {
    const schema = normaliseInputSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { kind: { type: 'string', enum: ['#/definitions/kind', 'plain'] } },
      properties: { kind: { $ref: '#/definitions/kind' }, note: { const: '#/definitions/note', description: '"#/definitions/x"' } },
    });
    expect(schema).toEqual({
      type: 'object',
      $defs: { kind: { type: 'string', enum: ['#/definitions/kind', 'plain'] } },
      properties: { kind: { $ref: '#/$defs/kind' }, note: { const: '#/definitions/note', description: '"#/definitions/x"' } },
    });
  });
});
