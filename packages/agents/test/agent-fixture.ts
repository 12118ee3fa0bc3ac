import { defineSkill, type SkillFamily, ToolResult } from '@nexus/core';
import { createTestAgent, type TestAgentOptions } from '@nexus/registry/testing';
import { fsSkills } from '@nexus/skills-fs';
import { type LlmRequestRecord, type LlmStandIn, startLlmStandIn, type TestDir, type Tree, testdir } from '@nexus/test-utils';
import { Agent, type AgentEvent, type AgentOptions, type ProviderType, parseAgentSettings, resolveModel } from '../src/index.js';

/** The API key the fixture's provider is configured with; tests check it never leaks. */
export const SECRET_KEY = 'sk-test-0123456789abcdefSECRET';
export const KEY_VARIABLE = 'NEXUS_TEST_LLM_KEY';

/** A tool that waits until its call is cancelled (or 60 s), to cancel a turn mid-tool. */
const waitSkill = defineSkill({
  name: 'wait_for_cancel',
  description: 'Waits until cancelled.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  readOnly: true,
  create: () => async (_args, context) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 60_000);
      context.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return context.signal?.aborted ? ToolResult.fail('cancelled', 'cancelled') : ToolResult.ok('waited');
  },
});

const arrivals = new Map<string, Array<() => void>>();

/**
 * A read-only tool that returns once `parties` calls with the same `group` have arrived: calls run
 * one after another never meet, and fail after 20 s.
 */
const rendezvousSkill = defineSkill<{ group: string; parties: number }>({
  name: 'rendezvous',
  description: 'Waits for the other calls of its group.',
  parameters: {
    type: 'object',
    properties: { group: { type: 'string' }, parties: { type: 'integer' } },
    required: ['group', 'parties'],
    additionalProperties: false,
  },
  readOnly: true,
  create:
    () =>
    ({ group, parties }) =>
      new Promise<ToolResult>((resolve) => {
        const waiting = arrivals.get(group) ?? [];
        arrivals.set(group, waiting);
        const timer = setTimeout(() => resolve(ToolResult.fail('the other calls never came')), 20_000);
        waiting.push(() => {
          clearTimeout(timer);
          resolve(ToolResult.ok('met'));
        });
        if (waiting.length === parties) for (const release of waiting.splice(0)) release();
      }),
});

/** Labels of `record` calls, in the order they finished. */
export const recorded: string[] = [];

/** A tool that changes state: records its label after `delayMs` (so calls run at once finish in another order). */
const recordSkill = defineSkill<{ label: string; delayMs: number }>({
  name: 'record',
  description: 'Records a label.',
  parameters: {
    type: 'object',
    properties: { label: { type: 'string' }, delayMs: { type: 'integer' } },
    required: ['label', 'delayMs'],
    additionalProperties: false,
  },
  create:
    () =>
    async ({ label, delayMs }) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      recorded.push(label);
      return ToolResult.ok(`recorded ${label}`);
    },
});

/** Test tools: waits for cancellation, needs company, records. */
export const testFamily: SkillFamily = { name: 'test', skills: [waitSkill, rendezvousSkill, recordSkill] };

/** The `index`th model request the stand-in received (negative: from the end). */
export function sent(llm: LlmStandIn, index: number): LlmRequestRecord {
  const request = llm.requests.at(index);
  if (request === undefined) throw new Error(`The stand-in received ${llm.requests.length} requests, not one at ${index}.`);
  return request;
}

/** The tool results a request carried (OpenAI `tool` messages or Anthropic `tool_result` blocks). */
export function toolResults(request: LlmRequestRecord): Array<{ id: string; content: string }> {
  const messages = (request.body.messages ?? []) as Array<Record<string, unknown>>;
  if (request.api === 'openai') {
    return messages
      .filter((message) => message.role === 'tool')
      .map((message) => ({ id: String(message.tool_call_id), content: String(message.content) }));
  }
  return messages
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : []))
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      id: String(block.tool_use_id),
      content:
        typeof block.content === 'string' ? block.content : (block.content as Array<{ text: string }>).map((part) => part.text).join(''),
    }));
}

export interface Fixture {
  llm: LlmStandIn;
  dir: TestDir;
  agent: Agent;
  events: AgentEvent[];
  close(): Promise<void>;
}

export interface FixtureOptions extends Partial<Omit<AgentOptions, 'model' | 'registry'>> {
  type?: ProviderType;
  files?: Tree;
  preset?: TestAgentOptions['preset'];
  contextWindow?: number;
  strictTools?: boolean;
  /** The registry's families (default: the file skills and {@link testFamily}). */
  families?: SkillFamily[];
}

/** An agent on the LLM stand-in, with the file skills over a temporary directory. */
export async function createFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const {
    type = 'openai-compatible',
    files = {},
    preset = 'trusted',
    contextWindow,
    strictTools,
    families = [fsSkills, testFamily],
    ...agentOptions
  } = options;
  const llm = await startLlmStandIn();
  const dir = await testdir(files);
  const settings = parseAgentSettings({
    providers: { local: { type, baseUrl: llm.url, apiKeyEnv: KEY_VARIABLE } },
    models: {
      fast: {
        provider: 'local',
        id: 'test-model',
        ...(contextWindow ? { contextWindow } : {}),
        ...(strictTools === undefined ? {} : { strictTools }),
      },
    },
    defaultModel: 'fast',
  });
  const model = resolveModel(settings, undefined, { [KEY_VARIABLE]: SECRET_KEY });
  const { registry } = createTestAgent({ cwd: dir.path, preset, families });
  const agent = new Agent({ model, registry, systemPrompt: 'You are a careful assistant.', ...agentOptions });
  const events: AgentEvent[] = [];
  return {
    llm,
    dir,
    agent,
    events,
    async close() {
      await llm.close();
      await dir.cleanup();
    },
  };
}
