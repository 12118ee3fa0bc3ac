import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, jsonSchema, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type LlmStandIn, startLlmStandIn } from './llm-stand-in.js';
import { findOpenAiStrictSchemaProblems } from './llm-stand-in-strict-schema.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** A schema in the shape OpenAI's strict mode documents: closed objects, everything required, optional as nullable. */
const VALID = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File to edit.' },
    start_line: { type: ['integer', 'null'], minimum: 1 },
    mode: { type: 'string', enum: ['replace', 'insert'] },
    edits: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: { old_string: { type: 'string' }, new_string: { type: 'string' } },
        required: ['old_string', 'new_string'],
        additionalProperties: false,
      },
    },
    target: { anyOf: [{ $ref: '#/$defs/range' }, { type: 'null' }] },
    when: { type: 'string', format: 'date-time' },
  },
  required: ['path', 'start_line', 'mode', 'edits', 'target', 'when'],
  additionalProperties: false,
  $defs: {
    range: {
      type: 'object',
      properties: { from: { type: 'integer' }, to: { type: 'integer' } },
      required: ['from', 'to'],
      additionalProperties: false,
    },
  },
};

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

describe('findOpenAiStrictSchemaProblems', () => {
  test('accepts a schema inside the documented subset', () => {
    expect(findOpenAiStrictSchemaProblems(VALID)).toEqual([]);
    expect(findOpenAiStrictSchemaProblems(closed({}))).toEqual([]);
  });

  test.each([
    {
      name: 'an object left open',
      schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      problem: "In context=(), 'additionalProperties' is required to be supplied and to be false.",
    },
    {
      name: 'a property missing from required',
      schema: { ...closed({ path: { type: 'string' }, limit: { type: 'integer' } }), required: ['path'] },
      problem:
        "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'limit'.",
    },
    {
      name: 'a required key that is not a property',
      schema: { ...closed({ path: { type: 'string' } }), required: ['path', 'ghost'] },
      problem: "In context=(), Extra required key 'ghost' supplied.",
    },
    {
      name: 'a default',
      schema: closed({ limit: { type: 'integer', default: 10 } }),
      problem: "In context=('properties', 'limit'), 'default' is not permitted.",
    },
    {
      name: 'a nested open object',
      schema: closed({ options: { type: 'object', properties: {}, required: [] } }),
      problem: "In context=('properties', 'options'), 'additionalProperties' is required to be supplied and to be false.",
    },
    {
      name: 'allOf',
      schema: closed({ value: { type: 'string', allOf: [{ minLength: 1 }] } }),
      problem: "In context=('properties', 'value'), 'allOf' is not permitted.",
    },
    {
      name: 'oneOf',
      schema: closed({ value: { type: ['string', 'integer'], oneOf: [{ type: 'string' }, { type: 'integer' }] } }),
      problem: "In context=('properties', 'value'), 'oneOf' is not permitted.",
    },
    {
      name: 'minLength',
      schema: closed({ name: { type: 'string', minLength: 1 } }),
      problem: "In context=('properties', 'name'), 'minLength' is not permitted.",
    },
    {
      name: 'an unsupported format',
      schema: closed({ site: { type: 'string', format: 'uri' } }),
      problem: "In context=('properties', 'site'), format 'uri' is not supported.",
    },
    {
      name: 'an array without items',
      schema: closed({ tags: { type: 'array' } }),
      problem: "In context=('properties', 'tags'), array schema missing items.",
    },
    {
      name: 'a property without a type',
      schema: closed({ anything: {} }),
      problem: "In context=('properties', 'anything'), schema must have a 'type' key.",
    },
    {
      name: 'a problem inside anyOf',
      schema: closed({ value: { anyOf: [{ type: 'string' }, { type: 'object', properties: {}, required: [] }] } }),
      problem: "In context=('properties', 'value', 'anyOf', 1), 'additionalProperties' is required to be supplied and to be false.",
    },
    {
      name: 'a problem inside $defs',
      schema: closed({ node: { $ref: '#/$defs/node' } }, { $defs: { node: { type: 'object', properties: {}, required: [] } } }),
      problem: "In context=('$defs', 'node'), 'additionalProperties' is required to be supplied and to be false.",
    },
  ])('refuses $name', ({ schema, problem }) => {
    expect(findOpenAiStrictSchemaProblems(schema)).toEqual([problem]);
  });

  test('refuses a root that is not an object or is an anyOf', () => {
    expect(findOpenAiStrictSchemaProblems({ type: 'string' })[0]).toMatch(/^In context=\(\), the root schema must have 'type' 'object'/);
    expect(findOpenAiStrictSchemaProblems({ anyOf: [closed({})] })[0]).toMatch(/must not use 'anyOf'/);
    expect(findOpenAiStrictSchemaProblems(undefined)[0]).toMatch(/root schema/);
  });

  test('refuses objects nested deeper than ten levels', () => {
    let schema: Record<string, unknown> = closed({ leaf: { type: 'string' } });
    for (let level = 0; level < 10; level++) schema = closed({ child: schema });
    expect(findOpenAiStrictSchemaProblems(schema).join('\n')).toContain('maximum nesting depth of 10');
  });

  test('names one problem per place, all of them', () => {
    const problems = findOpenAiStrictSchemaProblems({ type: 'object', properties: { a: { type: 'string', default: 'x' } } });
    expect(problems).toHaveLength(3);
  });
});

describe('strict tools through the providers', () => {
  let llm: LlmStandIn;
  beforeEach(async () => {
    llm = await startLlmStandIn();
  });
  afterEach(async () => {
    await llm.close();
  });

  const openAi = () => createOpenAI({ baseURL: llm.url, apiKey: 'sk-test' }).chat('gpt-4o-mini');
  const strictTool = (schema: Record<string, unknown>) => ({
    edit_file: tool({ description: 'Edits a file.', inputSchema: jsonSchema(schema), strict: true }),
  });

  test('OpenAI takes a valid strict tool', async () => {
    llm.script({ text: 'Fine.' });
    const answer = await generateText({ model: openAi(), prompt: 'Edit.', tools: strictTool(VALID), maxRetries: 0 });

    expect(answer.text).toBe('Fine.');
    expect(llm.requests[0]?.body.tools).toMatchObject([{ type: 'function', function: { name: 'edit_file', strict: true } }]);
  });

  test('OpenAI refuses an invalid strict tool with its 400, naming the parameter and the problem, without using a step', async () => {
    llm.script({ text: 'Not reached.' });
    const schema = {
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: 'integer', default: 10 } },
      required: ['path'],
    };
    const error = await generateText({ model: openAi(), prompt: 'Edit.', tools: strictTool(schema), maxRetries: 0 }).catch(
      (caught: unknown) => caught,
    );

    expect(APICallError.isInstance(error)).toBe(true);
    const callError = error as APICallError;
    expect(callError.statusCode).toBe(400);
    expect(callError.message).toBe(
      "Invalid schema for function 'edit_file': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
    expect(JSON.parse(callError.responseBody ?? '{}').error).toMatchObject({
      type: 'invalid_request_error',
      param: 'tools[0].function.parameters',
      code: 'invalid_function_parameters',
    });
    expect(llm.pendingSteps).toBe(1);
  });

  test('OpenAI does not check tools that are not strict', async () => {
    llm.script({ text: 'Fine.' });
    const loose = {
      read_file: tool({
        description: 'Reads.',
        inputSchema: jsonSchema({ type: 'object', properties: { n: { type: 'integer', default: 1 } } }),
      }),
    };
    expect((await generateText({ model: openAi(), prompt: 'Read.', tools: loose, maxRetries: 0 })).text).toBe('Fine.');
  });

  test('OpenAI refuses any tool whose parameters are not an object root or combine schemas at the top level', async () => {
    llm.script({ text: 'Not reached.' });
    const tools = {
      pick: tool({ description: 'Picks.', inputSchema: jsonSchema({ type: 'object', anyOf: [closed({ a: { type: 'string' } })] }) }),
    };
    const error = await generateText({ model: openAi(), prompt: 'Pick.', tools, maxRetries: 0 }).catch((caught: unknown) => caught);

    expect((error as APICallError).statusCode).toBe(400);
    expect((error as APICallError).message).toBe(
      "Invalid schema for function 'pick': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.",
    );
    expect(JSON.parse((error as APICallError).responseBody ?? '{}').error).toMatchObject({
      param: 'tools[0].function.parameters',
      code: 'invalid_function_parameters',
    });
    expect(llm.pendingSteps).toBe(1);
  });

  test('Anthropic refuses an input_schema whose root is not an object', async () => {
    llm.script({ text: 'Not reached.' });
    const tools = {
      pick: tool({ description: 'Picks.', inputSchema: jsonSchema({ type: 'object', anyOf: [closed({ a: { type: 'string' } })] }) }),
    };
    const error = await generateText({
      model: createAnthropic({ baseURL: llm.url, apiKey: 'sk-ant-test' })('claude-sonnet-4-5'),
      prompt: 'Pick.',
      tools,
      maxRetries: 0,
    }).catch((caught: unknown) => caught);

    expect((error as APICallError).statusCode).toBe(400);
    expect((error as APICallError).message).toBe(
      'tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    );
    expect(llm.pendingSteps).toBe(1);
  });
});
