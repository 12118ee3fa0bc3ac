import { defineSkill, InvalidOptionError, type JsonSchemaObject, ToolResult } from '@nexus/core';
import { findOpenAiStrictSchemaProblems } from '@nexus/test-utils';
import { describe, expect, it } from 'vitest';
import { SkillRegistry } from './index.js';
import { toStrictSchema } from './strict-schema.js';

const listing: JsonSchemaObject = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, description: 'Directory to list.' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'Most entries to show.' },
    sort: { type: 'string', enum: ['name', 'size'], default: 'name' },
    depth: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'null: unlimited.' },
  },
  required: ['path'],
  additionalProperties: false,
};

/** The OpenAI form, failing the test when there is none or OpenAI would refuse it. */
function openAi(schema: JsonSchemaObject): { schema: Record<string, unknown>; rules: readonly string[] } {
  const strict = toStrictSchema(schema, 'openai');
  expect(strict, 'a strict form').toBeDefined();
  expect(findOpenAiStrictSchemaProblems(strict?.schema)).toEqual([]);
  return strict as { schema: Record<string, unknown>; rules: readonly string[] };
}

describe('toStrictSchema for OpenAI', () => {
  it('requires every property, makes optional ones nullable and moves defaults and limits into the description', () => {
    expect(openAi(listing)).toEqual({
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Directory to list (not empty).' },
          limit: { type: ['integer', 'null'], description: 'Most entries to show (default: 10; 1 to 100).' },
          sort: { type: ['string', 'null'], enum: ['name', 'size', null], description: 'default: "name"' },
          depth: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'null: unlimited.' },
        },
        required: ['path', 'limit', 'sort', 'depth'],
        additionalProperties: false,
      },
      rules: [],
    });
  });

  it('closes nested objects and objects in arrays, and wraps optional non-simple values in anyOf with null', () => {
    const { schema } = openAi({
      type: 'object',
      properties: {
        edits: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { old: { type: 'string' }, all: { type: 'boolean', default: false } },
            required: ['old'],
          },
        },
        options: { type: 'object', properties: { mode: { const: 'fast' } } },
      },
    });
    expect(schema.properties).toEqual({
      edits: {
        anyOf: [
          {
            type: 'array',
            items: {
              type: 'object',
              properties: { old: { type: 'string' }, all: { type: ['boolean', 'null'], description: 'default: false' } },
              required: ['old', 'all'],
              additionalProperties: false,
            },
          },
          { type: 'null' },
        ],
        description: 'at least 1 item',
      },
      options: {
        anyOf: [
          {
            type: 'object',
            properties: { mode: { anyOf: [{ const: 'fast' }, { type: 'null' }] } },
            required: ['mode'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
    });
  });

  it('converts $defs and references, and oneOf into anyOf', () => {
    const { schema } = openAi({
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number', exclusiveMinimum: 0 } }, required: ['x'] } },
      properties: {
        from: { $ref: '#/$defs/point' },
        to: { $ref: '#/$defs/point', description: 'Where to go.' },
        label: { oneOf: [{ type: 'string', maxLength: 20 }, { type: 'integer' }] },
      },
      required: ['from'],
    });
    expect(schema.properties).toEqual({
      from: { $ref: '#/$defs/point' },
      to: { description: 'Where to go.', anyOf: [{ $ref: '#/$defs/point' }, { type: 'null' }] },
      label: { anyOf: [{ type: 'string', description: 'at most 20 characters' }, { type: 'integer' }, { type: 'null' }] },
    });
    expect(schema.$defs).toEqual({
      point: {
        type: 'object',
        properties: { x: { type: 'number', description: 'greater than 0' } },
        required: ['x'],
        additionalProperties: false,
      },
    });
  });

  it('folds a top-level anyOf into the root and says the alternatives in a rule', () => {
    const strict = openAi({
      type: 'object',
      properties: { dry_run: { type: 'boolean' } },
      anyOf: [
        { properties: { path: { type: 'string' } }, required: ['path'] },
        { properties: { url: { type: 'string' }, token: { type: 'string' } }, required: ['url', 'token'] },
      ],
    });
    expect(Object.keys(strict.schema.properties as object)).toEqual(['dry_run', 'path', 'url', 'token']);
    expect(strict.schema.anyOf).toBeUndefined();
    expect(strict.rules).toEqual(['Give at least one of: `path`, or `url` with `token`.']);
  });

  it('declares a property the root branches declare differently as an anyOf of its schemas', () => {
    const strict = openAi({
      type: 'object',
      anyOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { a: { type: 'number' } }, required: ['a'] },
      ],
    });
    expect(strict.schema.properties).toEqual({ a: { anyOf: [{ type: 'string' }, { type: 'number' }] } });
    expect(strict.schema.required).toEqual(['a']);
  });

  it('says root-level constraints in a rule', () => {
    const strict = openAi({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      dependentRequired: { a: ['b'] },
    });
    expect(strict.rules).toEqual(['Arguments: with `a`, also give `b`.']);
  });

  it.each<[string, JsonSchemaObject]>([
    ['an open-ended map', { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } }],
    ['an object without properties', { type: 'object', properties: { options: { type: 'object' } } }],
    ['patternProperties', { type: 'object', properties: {}, patternProperties: { '^x-': { type: 'string' } } }],
    ['a value that may be anything', { type: 'object', properties: { value: { description: 'Any JSON.' } } }],
    ['not', { type: 'object', properties: { name: { type: 'string', not: { const: 'root' } } } }],
    ['a nested allOf', { type: 'object', properties: { name: { allOf: [{ type: 'string' }, { minLength: 2 }] } } }],
    ['a tuple', { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } } }],
    [
      'a root branch that says more than properties',
      { type: 'object', anyOf: [{ properties: { a: { type: 'string' } }, minProperties: 1 }, { properties: { b: { type: 'number' } } }] },
    ],
  ])('has no strict form for %s', (_, schema) => {
    expect(toStrictSchema(schema, 'openai')).toBeUndefined();
    expect(toStrictSchema(schema, 'anthropic')).toBeUndefined();
  });

  it('gives an empty root an empty closed object', () => {
    expect(openAi({ type: 'object' }).schema).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });
});

describe('toStrictSchema for Anthropic', () => {
  it('keeps optional parameters optional and the keywords Anthropic enforces, and describes the rest', () => {
    expect(toStrictSchema(listing, 'anthropic')).toEqual({
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Directory to list (not empty).' },
          limit: { type: 'integer', default: 10, description: 'Most entries to show (1 to 100).' },
          sort: { type: 'string', enum: ['name', 'size'], default: 'name' },
          depth: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'null: unlimited.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      rules: [],
    });
  });

  it('keeps formats and item counts it supports', () => {
    const strict = toStrictSchema(
      {
        type: 'object',
        properties: {
          when: { type: 'string', format: 'date-time' },
          colour: { type: 'string', format: 'hex-colour' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5, uniqueItems: true },
        },
      },
      'anthropic',
    );
    expect(strict?.schema.properties).toEqual({
      when: { type: 'string', format: 'date-time' },
      colour: { type: 'string', description: 'format: hex-colour' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'at most 5 items; no duplicates' },
    });
  });

  it('folds a root oneOf, with its rule', () => {
    const strict = toStrictSchema(
      {
        type: 'object',
        oneOf: [
          { properties: { id: { type: 'integer' } }, required: ['id'] },
          { properties: { name: { type: 'string' } }, required: ['name'] },
        ],
      },
      'anthropic',
    );
    expect(strict).toEqual({
      schema: {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
        additionalProperties: false,
      },
      rules: ['Give exactly one of: `id`, or `name`.'],
    });
  });

  it('sends recursive schemas and tools past its per-schema limits non-strict; OpenAI takes the recursion', () => {
    const tree: JsonSchemaObject = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
    };
    expect(toStrictSchema(tree, 'anthropic')).toBeUndefined();
    expect(openAi(tree).schema.$defs).toMatchObject({ node: { required: ['children'], additionalProperties: false } });
    const manyOptional: JsonSchemaObject = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`option_${index}`, { type: 'string' }])),
    };
    expect(toStrictSchema(manyOptional, 'anthropic')).toBeUndefined();
    expect(toStrictSchema(manyOptional, 'openai')).toBeDefined();
  });
});

const inspect = defineSkill<Record<string, unknown>>({
  name: 'inspect',
  description: 'Returns its arguments as JSON.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      limit: { type: 'integer', default: 10 },
      depth: { type: ['integer', 'null'], default: 3 },
      edits: {
        type: 'array',
        items: { type: 'object', properties: { old: { type: 'string' }, all: { type: 'boolean', default: false } }, required: ['old'] },
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  create: () => (args) => ToolResult.ok(JSON.stringify(args)),
});
const open = defineSkill({
  name: 'open',
  description: 'Takes any labels.',
  parameters: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } },
  create: () => () => ToolResult.ok(''),
});

describe('strict definitions from the registry', () => {
  const registry = new SkillRegistry().register(inspect).register(open);

  it('marks convertible tools strict and sends the others as they are', () => {
    const [inspectTool, openTool] = registry.getDefinitions({ strict: true });
    expect(inspectTool?.function).toMatchObject({
      name: 'inspect',
      strict: true,
      parameters: { required: ['path', 'limit', 'depth', 'edits'] },
    });
    expect(openTool?.function).toEqual({ name: 'open', description: open.description, parameters: open.parameters });
    const [anthropicInspect, anthropicOpen] = registry.getDefinitions({ format: 'anthropic', strict: true });
    expect(anthropicInspect).toMatchObject({
      name: 'inspect',
      strict: true,
      input_schema: { required: ['path'], additionalProperties: false },
    });
    expect(anthropicOpen).toEqual({ name: 'open', description: open.description, input_schema: open.parameters });
  });

  it('adds the rules to the tool description', () => {
    const either = defineSkill({
      name: 'either',
      description: 'Opens something.',
      parameters: {
        type: 'object',
        anyOf: [
          { properties: { path: { type: 'string' } }, required: ['path'] },
          { properties: { url: { type: 'string' } }, required: ['url'] },
        ],
      },
      create: () => () => ToolResult.ok(''),
    });
    const [tool] = new SkillRegistry().register(either).getDefinitions({ format: 'anthropic', strict: true });
    expect(tool?.description).toBe('Opens something.\n\nGive at least one of: `path`, or `url`.');
  });

  it('leaves non-strict and MCP definitions alone, and checks the option', () => {
    expect(registry.getDefinitions({ strict: false })).toEqual(registry.getDefinitions());
    expect(registry.getDefinitions({ format: 'mcp', strict: true })).toEqual(registry.getDefinitions({ format: 'mcp' }));
    expect(() => registry.getDefinitions({ strict: 'yes' as unknown as boolean })).toThrow(InvalidOptionError);
  });

  it('reads null for an optional parameter as "not given", so its default applies, nested ones too', async () => {
    const args = { path: 'a', limit: null, edits: [{ old: 'x', all: null }] };
    const result = await registry.execute('inspect', args);
    expect(JSON.parse(result.output)).toEqual({ path: 'a', limit: 10, depth: 3, edits: [{ old: 'x', all: false }] });
    expect(args).toEqual({ path: 'a', limit: null, edits: [{ old: 'x', all: null }] });
  });

  it('keeps null where the schema accepts it, and refuses it for a required parameter', async () => {
    expect(JSON.parse((await registry.execute('inspect', { path: 'a', depth: null })).output)).toMatchObject({ depth: null });
    expect(await registry.execute('inspect', { path: null })).toMatchObject({
      kind: 'invalid_input',
      error: 'Parameter `path` must be a string, got null.',
    });
    expect(await registry.execute('inspect', { path: 'a', edits: [{ old: null }] })).toMatchObject({ kind: 'invalid_input' });
  });

  it('accepts what a strict model sends: every optional parameter null', async () => {
    const [tool] = registry.getDefinitions({ strict: true });
    const everyNull = Object.fromEntries(
      ((tool?.function.parameters.required ?? []) as string[]).map((name) => [name, name === 'path' ? 'a' : null]),
    );
    expect(JSON.parse((await registry.execute('inspect', everyNull)).output)).toEqual({ path: 'a', limit: 10, depth: null });
  });
});
