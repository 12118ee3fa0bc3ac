import { ConfigError, defineSkill, type JsonSchemaObject, ToolResult } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { type DefinitionFormat, SkillRegistry } from './index.js';

const skillWith = (parameters: JsonSchemaObject) =>
  defineSkill<Record<string, unknown>>({
    name: 'count_lines',
    description: 'Counts lines.',
    parameters,
    create: () => (args) => ToolResult.ok(JSON.stringify(args)),
  });

const counting = (schemaUri: string): JsonSchemaObject => ({
  $schema: schemaUri,
  type: 'object',
  properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1, default: 10 } },
  required: ['path'],
  additionalProperties: false,
});

describe('a parameters schema that names its dialect in $schema', () => {
  it.each([
    'http://json-schema.org/draft-07/schema#',
    'http://json-schema.org/draft-07/schema',
    'https://json-schema.org/draft-07/schema#',
    'http://json-schema.org/draft-06/schema#',
    'https://json-schema.org/draft/2019-09/schema',
    'https://json-schema.org/draft/2020-12/schema',
  ])('%s: registers, and calls are validated (defaults, errors naming the parameter)', async (schemaUri) => {
    const registry = new SkillRegistry().register(skillWith(counting(schemaUri)));
    const result = await registry.execute('count_lines', { path: 'a.txt' });
    expect(result.error).toBe('');
    expect(JSON.parse(result.output)).toEqual({ path: 'a.txt', limit: 10 });
    expect(await registry.execute('count_lines', { path: 'a.txt', limit: 0 })).toMatchObject({
      kind: 'invalid_input',
      error: 'Parameter `limit` must be >= 1, got number 0.',
    });
    expect(await registry.execute('count_lines', {})).toMatchObject({ kind: 'invalid_input', data: { parameters: ['path'] } });
  });

  it('validates a draft-07 schema by draft-07: shared schemas under definitions', async () => {
    const registry = new SkillRegistry().register(
      skillWith({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        definitions: { lines: { type: 'integer', minimum: 1 } },
        properties: { from: { $ref: '#/definitions/lines' }, to: { $ref: '#/definitions/lines' } },
      } as JsonSchemaObject),
    );
    expect((await registry.execute('count_lines', { from: 1, to: 2 })).success).toBe(true);
    expect(await registry.execute('count_lines', { from: 1, to: 'end' })).toMatchObject({
      kind: 'invalid_input',
      data: { parameters: ['to'] },
    });
  });

  it.each([
    ['draft-07', 'definitions', 'http://json-schema.org/draft-07/schema#'],
    ['2020-12', '$defs', 'https://json-schema.org/draft/2020-12/schema'],
  ])('%s: reads the null a model sends for an optional parameter declared under %s as "not given"', async (_, keyword, schemaUri) => {
    const registry = new SkillRegistry().register(
      skillWith({
        $schema: schemaUri,
        type: 'object',
        [keyword]: { mode: { type: 'string', enum: ['fast', 'slow'] } },
        properties: { path: { type: 'string' }, mode: { $ref: `#/${keyword}/mode` } },
        required: ['path'],
      } as JsonSchemaObject),
    );
    const result = await registry.execute('count_lines', { path: 'a.txt', mode: null });
    expect(result.error).toBe('');
    expect(JSON.parse(result.output)).toEqual({ path: 'a.txt' });
  });

  it.each(['http://json-schema.org/draft-04/schema#', 'https://example.com/my-dialect'])(
    'refuses %s at registration, saying which dialects it takes',
    (schemaUri) => {
      expect(() => new SkillRegistry().register(skillWith(counting(schemaUri)))).toThrow(
        new ConfigError(
          `Invalid parameters schema for skill "count_lines": $schema ${JSON.stringify(schemaUri)} is not a dialect the registry validates; ` +
            'use JSON Schema 2020-12 (or leave $schema out), 2019-09, draft-07 or draft-06.',
        ),
      );
    },
  );

  it.each<[string, JsonSchemaObject, string]>([
    [
      'a keyword draft-07 does not have',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        dependentRequired: { a: ['b'] },
      },
      'parameters.dependentRequired is not a supported JSON Schema keyword in draft-07',
    ],
    [
      'a $schema below the root',
      { type: 'object', properties: { a: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' } } },
      'parameters.properties.a.$schema is only allowed at the root',
    ],
  ])('refuses %s at registration', (_, parameters, problem) => {
    expect(() => new SkillRegistry().register(skillWith(parameters))).toThrow(problem);
  });

  it.each<DefinitionFormat>(['openai', 'anthropic', 'mcp'])('leaves $schema out of %s definitions', (format) => {
    const registry = new SkillRegistry().register(skillWith(counting('http://json-schema.org/draft-07/schema#')));
    for (const strict of [false, true]) expect(JSON.stringify(registry.getDefinitions({ format, strict }))).not.toContain('$schema');
  });
});
