import { parseAgentSettings, TOKEN_HOLDER } from '@nexus/agents';
import { defineSkill, ToolResult } from '@nexus/core';
import { type LlmStandIn, startLlmStandIn, type TestDir, testdir } from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestateRuntime, startRestateRuntime } from './index.js';
import { type RestateServer, startRestateServer } from './testing.js';

let dir: TestDir;
let restate: RestateServer;
let llm: LlmStandIn;
let runtime: RestateRuntime;
/** How often the `look` tool ran, by the `at` it was asked to look at. */
const looked = new Map<string, number>();

beforeAll(async () => {
  dir = await testdir({ work: {}, restate: {} });
  [restate, llm] = await Promise.all([startRestateServer(dir.join('restate')), startLlmStandIn()]);
  const look = defineSkill({
    name: 'look',
    description: 'Looks at something.',
    parameters: { type: 'object', properties: { at: { type: 'string' } }, required: ['at'], additionalProperties: false },
    readOnly: true,
    create: () => async (input: { at: string }) => {
      looked.set(input.at, (looked.get(input.at) ?? 0) + 1);
      return ToolResult.ok(`saw ${input.at}`);
    },
  });
  // One worker on its own endpoint: HTTP/2, each turn one bidirectional stream.
  runtime = await startRestateRuntime({
    settings: parseAgentSettings({
      providers: { local: { type: 'openai-compatible', baseUrl: llm.url, apiKeyEnv: 'NEXUS_TEST_LLM_KEY' } },
      models: { fast: { provider: 'local', id: 'test-model' } },
      defaultModel: 'fast',
    }),
    families: [{ name: 'test', skills: [look] }],
    cwd: dir.join('work'),
    env: { NEXUS_TEST_LLM_KEY: 'sk-test-key' },
    ingress: restate.ingress,
    admin: restate.admin,
    endpointPort: 0,
  });
});
afterAll(async () => {
  await runtime?.close();
  await restate?.close();
  await llm?.close();
  await dir?.cleanup();
});

describe("a turn's journal on Restate", () => {
  it("runs a step's read-only calls, asked at once, each once (Restate's SDK takes one awaited step at a time)", async () => {
    await runtime.call('create_agent', { agent_id: 'looker', preset: 'trusted' }, TOKEN_HOLDER);
    const calls = ['north', 'south', 'east'].map((at) => ({ name: 'look', arguments: { at } }));
    llm.script({ toolCalls: calls }, { text: 'Seen all three.' });

    const answer = await runtime.call('send', { content: 'Look around.', request_id: 'r1' }, TOKEN_HOLDER, 'looker');

    expect(answer).toMatchObject({ content: 'Seen all three.', request_id: 'r1' });
    expect(Object.fromEntries(looked)).toEqual({ north: 1, south: 1, east: 1 });
  });
});
