import { defineSkill, type SkillFamily, ToolResult } from '@nexus/core';
import { findOpenAiStrictSchemaProblems } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, sent } from '../test/agent-fixture.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

interface SentTool {
  type: string;
  function: { name: string; parameters: Record<string, unknown>; strict?: boolean };
}

describe('tool definitions sent to the provider', () => {
  it('an openai model gets strict definitions that follow OpenAI’s strict rules, and nulls for optional parameters take their defaults', async () => {
    fixture = await createFixture({ type: 'openai', files: { 'a.txt': 'one\ntwo\nthree\n' } });
    const { llm, agent } = fixture;
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt', offset: null, limit: null } }] }, { text: 'Read it.' });

    const result = await agent.send('Read a.txt.');

    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'read_file', success: true })]);
    const tools = sent(llm, 0).body.tools as SentTool[];
    const strict = tools.filter((tool) => tool.function.strict === true);
    expect(strict.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'write_file']));
    for (const tool of strict)
      expect([tool.function.name, findOpenAiStrictSchemaProblems(tool.function.parameters)]).toEqual([tool.function.name, []]);
  });

  it.each(['openai-compatible', 'anthropic'] as const)('a %s model gets the plain definitions by default', async (type) => {
    fixture = await createFixture({ type });
    const { llm, agent } = fixture;
    llm.script({ text: 'Hi.' });

    await agent.send('Hello.');

    const body = sent(llm, 0).body as { tools: Array<Record<string, unknown>> };
    expect(JSON.stringify(body.tools)).not.toContain('"strict":true');
    expect(body.tools.length).toBeGreaterThan(10);
  });

  it('strictTools in the model settings overrides the default', async () => {
    fixture = await createFixture({ type: 'openai-compatible', strictTools: true });
    const { llm, agent } = fixture;
    llm.script({ text: 'Hi.' });

    await agent.send('Hello.');

    expect((sent(llm, 0).body.tools as SentTool[]).some((tool) => tool.function.strict === true)).toBe(true);
  });
});

/** An imported tool as a tagged union of objects arrives: a top-level anyOf, which the providers refuse there. */
const importedFamily: SkillFamily = {
  name: 'mcp__docs',
  skills: [
    defineSkill<Record<string, unknown>>({
      name: 'mcp__docs__open',
      description: 'Opens a document.',
      parameters: {
        type: 'object',
        properties: {},
        anyOf: [
          {
            type: 'object',
            properties: { kind: { const: 'file' }, path: { type: 'string' } },
            required: ['kind', 'path'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { kind: { const: 'url' }, url: { type: 'string' } },
            required: ['kind', 'url'],
            additionalProperties: false,
          },
        ],
      },
      readOnly: true,
      create: () => (args) => ToolResult.ok(`opened ${JSON.stringify(args)}`),
    }),
  ],
};

describe.each(['openai-compatible', 'anthropic'] as const)('a tool with a top-level anyOf, over %s', (type) => {
  it.each([false, true])(
    'is taken by the provider (strict: %s), and its calls are validated against its own schema',
    async (strictTools) => {
      fixture = await createFixture({ type, strictTools, families: [importedFamily] });
      const { llm, agent } = fixture;
      llm.script(
        { toolCalls: [{ name: 'mcp__docs__open', arguments: { kind: 'file', url: 'https://example.com/a.md' } }] },
        { toolCalls: [{ name: 'mcp__docs__open', arguments: { kind: 'file', path: 'a.md' } }] },
        { text: 'Opened.' },
      );

      const result = await agent.send('Open a.md.');

      expect(result.content).toBe('Opened.');
      expect(result.toolCalls).toEqual([
        expect.objectContaining({ name: 'mcp__docs__open', success: false, kind: 'invalid_input' }),
        expect.objectContaining({ name: 'mcp__docs__open', success: true }),
      ]);
    },
  );
});
