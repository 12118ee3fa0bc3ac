import { defineSkill, ToolResult } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { SkillRegistry } from './index.js';

/** A skill that returns the arguments it was given, to see what validation made of them. */
const typedSkill = defineSkill<Record<string, unknown>>({
  name: 'typed',
  description: 'Returns its arguments as JSON.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      content: { type: 'string' },
      offset: { type: 'integer', minimum: 1, default: 1 },
      ratio: { type: 'number' },
      flag: { type: 'boolean' },
      label: { type: ['integer', 'string'] },
      depth: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      edits: {
        type: 'array',
        items: {
          type: 'object',
          properties: { old_string: { type: 'string' }, count: { type: 'integer', default: 1 }, replace_all: { type: 'boolean' } },
          required: ['old_string'],
          additionalProperties: false,
        },
      },
      options: {
        type: 'object',
        properties: { limits: { type: 'object', properties: { lines: { type: 'integer' } } } },
        additionalProperties: { type: 'number' },
      },
      counters: { type: 'object', patternProperties: { '^n_': { type: 'integer' } }, additionalProperties: { type: 'boolean' } },
      range: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }], minItems: 2, items: false },
    },
    additionalProperties: false,
  },
  create: () => (args) => ToolResult.ok(JSON.stringify(args)),
});

const registry = () => new SkillRegistry().register(typedSkill);

async function accepted(args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await registry().execute('typed', args);
  expect(result.success, result.error).toBe(true);
  return JSON.parse(result.output);
}

describe('parameter types: only text a model commonly sends is coerced', () => {
  it.each([
    [{ offset: '10' }, { offset: 10 }],
    [
      { offset: '3', ratio: '-2.5e1' },
      { offset: 3, ratio: -25 },
    ],
    [{ ratio: '10' }, { ratio: 10 }],
    [{ flag: 'true' }, { flag: true }],
    [{ flag: 'false' }, { flag: false }],
    [{ label: '10' }, { label: '10' }],
    [{ label: 10 }, { label: 10 }],
    [{ depth: '3' }, { depth: 3 }],
    [{ depth: null }, { depth: null }],
    // null for an optional parameter that does not accept null means "not given" (what strict function calling sends)
    [{ offset: null }, {}],
    [{ content: null, flag: null, label: null }, {}],
    [{ options: { limits: { lines: null } } }, { options: { limits: {} } }],
  ])('accepts %j as %j', async (args, expected) => {
    expect(await accepted(args)).toEqual({ offset: 1, ...expected });
  });

  it.each([
    [{ path: 42 }, 'Parameter `path` must be a string, got number 42.', 'path'],
    [{ path: true }, 'Parameter `path` must be a string, got boolean true.', 'path'],
    [{ offset: true }, 'Parameter `offset` must be an integer, got boolean true.', 'offset'],
    [{ offset: '1.5' }, 'Parameter `offset` must be an integer, got the string "1.5".', 'offset'],
    [{ offset: '' }, 'Parameter `offset` must be an integer, got the string "".', 'offset'],
    [{ offset: ' 10' }, 'Parameter `offset` must be an integer, got the string " 10".', 'offset'],
    [{ offset: '0x10' }, 'Parameter `offset` must be an integer, got the string "0x10".', 'offset'],
    [{ ratio: false }, 'Parameter `ratio` must be a number, got boolean false.', 'ratio'],
    [{ ratio: '1e999' }, 'Parameter `ratio` must be a number, got the string "1e999".', 'ratio'],
    [{ flag: 1 }, 'Parameter `flag` must be a boolean (true or false), got number 1.', 'flag'],
    [{ flag: 'yes' }, 'Parameter `flag` must be a boolean (true or false), got the string "yes".', 'flag'],
  ])('refuses %j: %s', async (args, message, parameter) => {
    const result = await registry().execute('typed', args);
    expect(result).toMatchObject({ success: false, kind: 'invalid_input', error: message, data: { parameters: [parameter] } });
  });

  it('applies the rule inside arrays and objects where the schema says so, filling in nested defaults', async () => {
    expect(
      await accepted({
        edits: [{ old_string: 'a', count: '2', replace_all: 'true' }, { old_string: 'b' }],
        options: { limits: { lines: '5' }, scale: '0.5' },
        counters: { n_files: '3', verbose: 'true' },
        range: ['4', 'false'],
      }),
    ).toEqual({
      offset: 1,
      edits: [
        { old_string: 'a', count: 2, replace_all: true },
        { old_string: 'b', count: 1 },
      ],
      options: { limits: { lines: 5 }, scale: 0.5 },
      counters: { n_files: 3, verbose: true },
      range: [4, false],
    });
  });

  it.each([
    [{ edits: [{ old_string: null }] }, 'Parameter `edits[0].old_string` must be a string, got null.', 'edits[0].old_string'],
    [
      { edits: [{ old_string: 'a' }, { old_string: 7 }] },
      'Parameter `edits[1].old_string` must be a string, got number 7.',
      'edits[1].old_string',
    ],
    [{ edits: [{ old_string: 'a', count: true }] }, 'Parameter `edits[0].count` must be an integer, got boolean true.', 'edits[0].count'],
    [
      { options: { limits: { lines: true } } },
      'Parameter `options.limits.lines` must be an integer, got boolean true.',
      'options.limits.lines',
    ],
    [{ options: { scale: 'big' } }, 'Parameter `options.scale` must be a number, got the string "big".', 'options.scale'],
    [{ counters: { n_files: 'true' } }, 'Parameter `counters.n_files` must be an integer, got the string "true".', 'counters.n_files'],
    [{ range: [1, 1] }, 'Parameter `range[1]` must be a boolean (true or false), got number 1.', 'range[1]'],
  ])('refuses nested %j naming the nested parameter', async (args, message, parameter) => {
    const result = await registry().execute('typed', args);
    expect(result).toMatchObject({ kind: 'invalid_input', error: message, data: { parameters: [parameter] } });
  });

  it('keeps a `__proto__` key an own property, so it is validated and never becomes a prototype', async () => {
    const result = await registry().execute('typed', JSON.parse('{ "options": { "__proto__": { "scale": 2 } } }'));
    expect(result).toMatchObject({ kind: 'invalid_input', data: { parameters: ['options.__proto__'] } });
  });

  it('never changes the caller’s objects, nested ones included', async () => {
    const args = {
      edits: [{ old_string: 'a', count: '2' }, { old_string: 'b' }],
      options: { limits: { lines: '5' } },
      range: ['4', 'true'],
    };
    const before = structuredClone(args);
    await accepted(args);
    expect(args).toEqual(before);
  });
});
