import { defineSkill, type JsonSchemaObject, ToolResult } from '@nexus/core';
import { type LlmStandIn, startLlmStandIn } from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DefinitionFormat, SkillRegistry } from './index.js';
import { outputSchemaProblems } from './testing.js';

const closed = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** What an imported MCP tool built from a union of objects sends: a top-level anyOf of closed objects. */
const openSchema: JsonSchemaObject = {
  type: 'object',
  properties: {},
  anyOf: [
    closed({ source: { const: 'file' }, path: { type: 'string' } }, ['source', 'path']),
    closed({ source: { const: 'url' }, url: { type: 'string' }, token: { type: 'string' } }, ['source', 'url']),
  ],
};

const skillWith = (name: string, parameters: JsonSchemaObject) =>
  defineSkill<Record<string, unknown>>({
    name,
    description: 'Opens a source.',
    parameters,
    create: () => (args) => ToolResult.ok(JSON.stringify(args)),
  });

const registryWith = (parameters: JsonSchemaObject) => new SkillRegistry().register(skillWith('open_source', parameters));

/** The parameters schema and description of the only tool, in `format`. */
function definitionOf(registry: SkillRegistry, format: DefinitionFormat, strict = false) {
  const [definition] = registry.getDefinitions({ format, strict });
  if (definition && 'function' in definition)
    return { schema: definition.function.parameters, description: definition.function.description };
  if (definition && 'input_schema' in definition) return { schema: definition.input_schema, description: definition.description };
  if (definition && 'inputSchema' in definition) return { schema: definition.inputSchema, description: definition.description };
  throw new Error(`no ${format} definition`);
}

describe('definitions of a schema with a top-level anyOf, oneOf or allOf', () => {
  it.each<DefinitionFormat>(['openai', 'anthropic', 'mcp'])(
    'the %s definition has an object root: the branches’ properties merged, the alternatives in the description',
    (format) => {
      expect(definitionOf(registryWith(openSchema), format)).toEqual({
        schema: {
          type: 'object',
          properties: {
            source: { anyOf: [{ const: 'file' }, { const: 'url' }] },
            path: { type: 'string' },
            url: { type: 'string' },
            token: { type: 'string' },
          },
          required: ['source'],
          additionalProperties: false,
        },
        description: 'Opens a source.\n\nGive at least one of: `source` = "file" with `path`, or `source` = "url" with `url`.',
      });
    },
  );

  it('requires what every oneOf branch requires and everything an allOf branch requires', () => {
    const oneOf = definitionOf(
      registryWith({
        type: 'object',
        properties: { verbose: { type: 'boolean' } },
        oneOf: [
          { properties: { id: { type: 'integer' }, scope: { type: 'string' } }, required: ['id', 'scope'] },
          { properties: { name: { type: 'string' }, scope: { type: 'string' } }, required: ['name', 'scope'] },
        ],
      }),
      'anthropic',
    );
    expect(oneOf).toEqual({
      schema: {
        type: 'object',
        properties: { verbose: { type: 'boolean' }, id: { type: 'integer' }, scope: { type: 'string' }, name: { type: 'string' } },
        required: ['scope'],
      },
      description: 'Opens a source.\n\nGive exactly one of: `id` with `scope`, or `name` with `scope`.',
    });
    const allOf = definitionOf(
      registryWith({
        type: 'object',
        allOf: [
          { properties: { id: { type: 'integer' } }, required: ['id'] },
          { properties: { id: { type: 'integer', minimum: 1 }, tag: { type: 'string' } }, required: ['tag'] },
        ],
      }),
      'openai',
    );
    expect(allOf).toEqual({
      schema: {
        type: 'object',
        properties: { id: { anyOf: [{ type: 'integer' }, { type: 'integer', minimum: 1 }] }, tag: { type: 'string' } },
        required: ['id', 'tag'],
      },
      description: 'Opens a source.',
    });
  });

  it('leaves out a top-level not, which OpenAI refuses there', () => {
    const { schema } = definitionOf(
      registryWith({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, not: { required: ['a', 'b'] } }),
      'openai',
    );
    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } });
  });

  it('validates calls against the original schema', async () => {
    const registry = registryWith(openSchema);
    expect(JSON.parse((await registry.execute('open_source', { source: 'file', path: 'a.txt' })).output)).toEqual({
      source: 'file',
      path: 'a.txt',
    });
    for (const args of [{}, { source: 'file', url: 'https://example.com' }, { source: 'url', path: 'a.txt' }]) {
      expect(await registry.execute('open_source', args)).toMatchObject({ success: false, kind: 'invalid_input' });
    }
  });
});

describe('the providers take the definitions (the LLM stand-in’s rules)', () => {
  let llm: LlmStandIn;
  beforeAll(async () => {
    llm = await startLlmStandIn();
    llm.respondWith(() => ({ text: 'Fine.' }));
  });
  afterAll(() => llm.close());

  const conflicting: JsonSchemaObject = {
    type: 'object',
    oneOf: [
      closed({ mode: { type: 'string', enum: ['fast'] }, limit: { type: 'integer' } }, ['mode']),
      closed({ mode: { type: 'integer' } }, ['mode']),
    ],
  };
  const registry = new SkillRegistry().register(skillWith('open_source', openSchema)).register(skillWith('set_mode', conflicting));
  const messages = [{ role: 'user', content: 'Hi.' }];
  const post = (path: string, body: Record<string, unknown>) =>
    fetch(`${llm.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it.each([false, true])('OpenAI answers a request with these tools (strict: %s)', async (strict) => {
    const response = await post('/chat/completions', { model: 'gpt-4o-mini', messages, tools: registry.getDefinitions({ strict }) });
    expect([response.status, await response.json()]).toMatchObject([200, { choices: [{ message: { content: 'Fine.' } }] }]);
  });

  it.each([false, true])('Anthropic answers a request with these tools (strict: %s)', async (strict) => {
    const tools = registry.getDefinitions({ format: 'anthropic', strict });
    const response = await post('/messages', { model: 'claude-sonnet-4-5', max_tokens: 64, messages, tools });
    expect([response.status, await response.json()]).toMatchObject([200, { content: [{ type: 'text', text: 'Fine.' }] }]);
  });
});

describe('MCP definitions of a skill declaring a title, hints and an output schema', () => {
  const outputSchema: JsonSchemaObject = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
  const counted = (metadata: Partial<Parameters<typeof defineSkill>[0]>) =>
    new SkillRegistry().register(
      defineSkill({
        name: 'count',
        description: 'Counts.',
        parameters: { type: 'object' },
        create: () => () => ToolResult.ok('1', { count: 1 }),
        ...metadata,
      }),
    );

  it('carry the title, the idempotent and open-world hints and the output schema', () => {
    const [definition] = counted({ title: 'Count', readOnly: true, idempotent: true, openWorld: true, outputSchema }).getDefinitions({
      format: 'mcp',
    });
    expect(definition).toEqual({
      name: 'count',
      title: 'Count',
      description: 'Counts.',
      inputSchema: { type: 'object' },
      outputSchema,
      annotations: { title: 'Count', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    });
  });

  it('say nothing of what the skill does not declare', () => {
    const [definition] = counted({}).getDefinitions({ format: 'mcp' });
    expect(definition).toEqual({
      name: 'count',
      description: 'Counts.',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: false },
    });
  });

  it('leave the output schema out of the OpenAI and Anthropic formats', () => {
    const registry = counted({ title: 'Count', outputSchema });
    expect(JSON.stringify(registry.getDefinitions({ format: 'openai' }))).not.toContain('Count"');
    expect(registry.getDefinitions({ format: 'anthropic' })).toEqual([
      { name: 'count', description: 'Counts.', input_schema: { type: 'object' } },
    ]);
  });

  it('come only from an object-root outputSchema: a registry refuses any other', () => {
    expect(() => counted({ outputSchema: { type: 'array' } as never })).toThrow(
      'Skill "count" declares an outputSchema whose root is not `type: "object"`; MCP structured content is an object.',
    );
  });

  it('are checked by outputSchemaProblems against the data a call returns', async () => {
    const registry = counted({ outputSchema });
    expect(await outputSchemaProblems(registry, 'count', await registry.execute('count'))).toEqual([]);
    expect(await outputSchemaProblems(registry, 'count', ToolResult.ok('1', { count: 'one' }))).toEqual(['/count must be integer']);
    expect(await outputSchemaProblems(registry, 'count', ToolResult.ok('1'))).toEqual(['count returned no data.']);
    expect(await outputSchemaProblems(counted({}), 'count', ToolResult.ok('1', { count: 1 }))).toEqual(['count declares no outputSchema.']);
  });
});
