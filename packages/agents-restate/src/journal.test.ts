import { setTimeout as delay } from 'node:timers/promises';
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
/** Told each time `look` runs. */
let onLook: ((at: string) => void) | undefined;
/** Whether the test has let the paused Restate server go on; the `write` tool notes it at each start. */
let resumed = false;
const wroteAfterResume: boolean[] = [];

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
      onLook?.(input.at);
      return ToolResult.ok(`saw ${input.at}`);
    },
  });
  const write = defineSkill({
    name: 'write',
    description: 'Writes something down.',
    parameters: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'], additionalProperties: false },
    create: () => async () => {
      wroteAfterResume.push(resumed);
      return ToolResult.ok('written');
    },
  });
  // One worker on its own endpoint: HTTP/2, each turn one bidirectional stream.
  runtime = await startRestateRuntime({
    settings: parseAgentSettings({
      providers: { local: { type: 'openai-compatible', baseUrl: llm.url, apiKeyEnv: 'NEXUS_TEST_LLM_KEY' } },
      models: { fast: { provider: 'local', id: 'test-model' } },
      defaultModel: 'fast',
    }),
    families: [{ name: 'test', skills: [look, write] }],
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

  it('journals a model step and the read-only calls it asks as one entry, each call run once, its answer before the next entry', async () => {
    await runtime.call('create_agent', { agent_id: 'glancer', preset: 'trusted' }, TOKEN_HOLDER);
    const calls = ['up', 'down'].map((at) => ({ name: 'look', arguments: { at } }));
    llm.script({ toolCalls: calls }, { toolCalls: [{ name: 'look', arguments: { at: 'left' } }] }, { text: 'Seen.' });

    expect(await runtime.call('send', { content: 'Glance.', request_id: 'g1' }, TOKEN_HOLDER, 'glancer')).toMatchObject({
      content: 'Seen.',
    });

    const runs = await restate.query<{ name: string | null; entry_type: string }>(
      "SELECT j.name, j.entry_type FROM sys_journal j JOIN sys_invocation i ON j.id = i.id WHERE i.target_service_key = 'glancer' AND i.target_handler_name = 'send' AND j.entry_type LIKE '%: Run' ORDER BY j.index",
    );
    const commands = runs.filter((run) => run.entry_type === 'Command: Run');
    expect(commands.map((run) => run.name?.replace(/^\S+ /, ''))).toEqual(['model step 1', 'model step 2', 'model step 3']);
    // Each step's answer is in the journal before the next step's entry: a replay that asks the model again meets no entry it may not reach.
    expect(runs.map((run) => run.entry_type)).toEqual(commands.flatMap(() => ['Command: Run', 'Notification: Run']));
    expect(['up', 'down', 'left'].map((at) => looked.get(at))).toEqual([1, 1, 1]);
  });

  it("runs a step's read-only calls before Restate acknowledges the model step, a call that may write only once it has", async () => {
    await runtime.call('create_agent', { agent_id: 'writer', preset: 'trusted' }, TOKEN_HOLDER);
    const lookedWhilePaused = Promise.withResolvers<void>();
    onLook = (at) => at === 'while paused' && lookedWhilePaused.resolve();
    llm.script(
      () => {
        // Nothing the worker sends Restate from here on is acknowledged until the test resumes it.
        restate.pause();
        return {
          toolCalls: [
            { name: 'look', arguments: { at: 'while paused' } },
            { name: 'write', arguments: { what: 'after the model step is durable' } },
          ],
        };
      },
      { text: 'Looked, then wrote.' },
    );
    try {
      const answer = runtime.call('send', { content: 'Look, then write.', request_id: 'w1' }, TOKEN_HOLDER, 'writer');
      await lookedWhilePaused.promise;
      // Time for a write that did not wait for the model step's acknowledgement to start (and be
      // caught); a journal that waits passes however long this is.
      await delay(250);
      resumed = true;
      restate.resume();

      expect(await answer).toMatchObject({ content: 'Looked, then wrote.', request_id: 'w1' });
      expect(wroteAfterResume).toEqual([true]);
      expect(looked.get('while paused')).toBe(1);
    } finally {
      restate.resume();
      onLook = undefined;
    }
  });
});
