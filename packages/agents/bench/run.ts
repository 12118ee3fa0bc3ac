// Benchmarks of @nexus/agents against the LLM stand-in, run on the build (`pnpm build` first) with
// tsx (the stand-in is TypeScript). Every figure is printed beside a baseline from the same run (no
// pass/fail):
//  1. a 5-step tool loop through Agent.send against a bare streamText loop with the same tools and
//     the same registry (goal ≤ 1.1×, and under 2 ms of the loop's own per step);
//  2. memory of 100 idle agents, each with its own registry and one finished turn (goal ≤ 2 MB each);
//  3. 50 agents running a 5-step loop at once (goal: none failing);
//  4. the agent server: a `send` round trip over HTTP against the same turn in-process (goal ≤ 1 ms
//     added), `create_agent` (goal ≤ 20 ms), and 20 agents sending at once (goal: all answered);
//  5. sessions (specs/agent-server.md §9): a 1-step and a 5-step send on an agent with a 500-turn
//     history against the same sends on a fresh agent, beside what a bare streamText call costs for
//     that history (the AI SDK and the stand-in), so what Nexus adds shows apart (goal ≤ 5 ms).

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSkill, resolvePreset, ServiceContainer, type SkillFamily, ToolResult } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { fsSkills } from '@nexus/skills-fs';
import { type LlmRequestRecord, startLlmStandIn } from '@nexus/test-utils';
import { jsonSchema, type ModelMessage, streamText, type ToolSet } from 'ai';
import { median, printRatios, sampleInterleaved, time } from '../../../scripts/bench-stats.mjs';
import { Agent, AgentPool, parseAgentSettings, resolveModel, serveAgents, TOKEN_HOLDER } from '../dist/index.js';

const STEPS = 5;
/** The content of a send the stand-in answers at once: a 1-step turn. */
const ONE_STEP = 'Answer.';
const HISTORY_TURNS = 500;
const HISTORY_ROUNDS = 30;
const ROUNDS = 100;
const WARM_UP = 10;
const IDLE_AGENTS = 100;
const CONCURRENT_AGENTS = 50;
const MB = 1024 * 1024;

const noopSkill = defineSkill({
  name: 'noop',
  description: 'Does nothing.',
  parameters: { type: 'object', properties: { step: { type: 'integer' } }, additionalProperties: false },
  readOnly: true,
  create: () => () => ToolResult.ok('done'),
});
const families: SkillFamily[] = [fsSkills, { name: 'bench', skills: [noopSkill] }];

/** Tool results since the last user message: the steps this turn has made. */
function toolResultCount(request: LlmRequestRecord): number {
  const messages = request.body.messages as Array<{ role: string }>;
  const turn = messages.slice(messages.findLastIndex((message) => message.role === 'user'));
  return turn.filter((message) => message.role === 'tool').length;
}

const llm = await startLlmStandIn();
// Every conversation: STEPS - 1 steps calling `noop`, then an answer.
llm.respondWith((request) => {
  const done = toolResultCount(request);
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  if (messages.findLast((message) => message.role === 'user')?.content === ONE_STEP) return { text: 'Answered.' };
  return done < STEPS - 1 ? { toolCalls: [{ name: 'noop', arguments: { step: done + 1 } }] } : { text: 'All steps done.' };
});
const settings = parseAgentSettings({
  providers: { local: { type: 'openai-compatible', baseUrl: llm.url } },
  models: { fast: { provider: 'local', id: 'bench-model' } },
  defaultModel: 'fast',
});
const cwd = process.cwd();
function createRegistry(): SkillRegistry {
  const services = new ServiceContainer().register('cwd', cwd).register('permissions', resolvePreset('sandboxed', { cwd }));
  return new SkillRegistry(services).use(...families);
}
const newAgent = (registry = createRegistry()) => new Agent({ model: resolveModel(settings), registry, systemPrompt: 'Bench.' });

// 1. The loop against a bare streamText loop with the same tools and registry.
const registry = createRegistry();
const model = resolveModel(settings).model;
const tools: ToolSet = Object.fromEntries(
  registry
    .getDefinitions()
    .map(({ function: tool }) => [tool.name, { description: tool.description, inputSchema: jsonSchema(tool.parameters as never) }]),
);
async function bareLoop(): Promise<void> {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Go.' }];
  for (;;) {
    const result = streamText({ model, instructions: 'Bench.', messages, tools });
    const calls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
    for await (const part of result.stream) if (part.type === 'tool-call') calls.push(part);
    messages.push(...(await result.response).messages);
    if (calls.length === 0) return;
    const results = await Promise.all(calls.map((call) => registry.execute(call.toolName, call.input as Record<string, unknown>)));
    messages.push({
      role: 'tool',
      content: calls.map((call, index) => ({
        type: 'tool-result' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'text' as const, value: results[index]?.output ?? '' },
      })),
    });
  }
}
const agent = newAgent(registry);
const samples = await sampleInterleaved(
  {
    'bare streamText loop': bareLoop,
    'Agent.send': async () => {
      await agent.clear();
      await agent.send('Go.');
    },
  },
  { runs: ROUNDS, warmUp: WARM_UP },
);
console.log(`A ${STEPS}-step tool loop against the stand-in (fs tools + noop):`);
printRatios(samples, 'bare streamText loop');
const perStep = (median(samples['Agent.send']) - median(samples['bare streamText loop'])) / STEPS;
console.log(`  the loop's own cost per step beyond the bare loop: ${perStep.toFixed(2)} ms (goal < 2 ms; ratio goal ≤ 1.10×)\n`);

// 2. Memory of idle agents.
const gc = globalThis.gc;
if (gc) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const idle = Array.from({ length: IDLE_AGENTS }, () => newAgent());
  for (const each of idle) await each.send('Go.');
  gc();
  const perAgent = (process.memoryUsage().heapUsed - before) / IDLE_AGENTS / MB;
  console.log(
    `Memory of ${IDLE_AGENTS} idle agents (own registry each, one finished ${STEPS}-step turn): ${perAgent.toFixed(2)} MB each (goal ≤ 2 MB)\n`,
  );
  idle.length = 0;
} else {
  console.log('Memory of idle agents: skipped (run node with --expose-gc)\n');
}

// 3. Many agents at once.
const crowd = Array.from({ length: CONCURRENT_AGENTS }, () => newAgent());
const started = performance.now();
const outcomes = await Promise.allSettled(crowd.map((each) => each.send('Go.')));
const failed = outcomes.filter((outcome) => outcome.status === 'rejected' || outcome.value.content !== 'All steps done.').length;
console.log(
  `${CONCURRENT_AGENTS} agents running a ${STEPS}-step loop at once: ${failed} failed, ${(performance.now() - started).toFixed(0)} ms in all (goal: none failing)`,
);

// 4. The agent server.
const stateDir = await mkdtemp(join(tmpdir(), 'nexus-agents-bench-'));
const pool = new AgentPool({ settings, families, cwd, stateDir });
const server = await serveAgents(pool, { port: 0, env: {}, stateDir });
let rpcId = 0;
async function rpc(path: string, method: string, params: object): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}
// Each send goes to a fresh agent, so every sample is the same 5-step turn on an empty conversation.
const sends: Record<string, number[]> = { 'send in-process (pool.call)': [], 'send over HTTP': [] };
for (let round = 0; round < WARM_UP + ROUNDS; round++) {
  await rpc('/', 'create_agent', { agent_id: `local-${round}` });
  await rpc('/', 'create_agent', { agent_id: `remote-${round}` });
  const local = await time(() => pool.call('send', { content: 'Go.' }, TOKEN_HOLDER, `local-${round}`));
  const remote = await time(() => rpc(`/agent/remote-${round}`, 'send', { content: 'Go.' }));
  if (round >= WARM_UP) {
    sends['send in-process (pool.call)']?.push(local);
    sends['send over HTTP']?.push(remote);
  }
}
console.log(`\nThe agent server, a ${STEPS}-step send to a new agent:`);
printRatios(sends, 'send in-process (pool.call)');
const added = median(sends['send over HTTP'] ?? []) - median(sends['send in-process (pool.call)'] ?? []);
console.log(`  HTTP adds ${added.toFixed(2)} ms per send (goal ≤ 1 ms)`);
let created = 0;
const creates = await sampleInterleaved(
  { create_agent: () => rpc('/', 'create_agent', { agent_id: `made-${++created}` }) },
  { runs: 50, warmUp: 5 },
);
console.log(`  create_agent: ${median(creates.create_agent).toFixed(2)} ms median (goal ≤ 20 ms, session file included)`);
const senders = Array.from({ length: 20 }, (_, index) => `sender-${index}`);
for (const id of senders) await rpc('/', 'create_agent', { agent_id: id });
const answered = await Promise.allSettled(senders.map((id) => rpc(`/agent/${id}`, 'send', { content: 'Go.' })));
console.log(
  `  20 agents sending at once: ${answered.filter((outcome) => outcome.status === 'fulfilled').length} of 20 answered (goal: all)`,
);
await server.close();
await rm(stateDir, { recursive: true, force: true });

// 5. Sessions: a long history against a fresh agent. The long agent's session is written in the
// single-file format, so its first send also converts it.
const history: ModelMessage[] = Array.from({ length: HISTORY_TURNS }, (_, turn): ModelMessage[] => [
  { role: 'user', content: `Question ${turn}: what is ${turn} squared?` },
  { role: 'assistant', content: [{ type: 'text', text: `${turn} squared is ${turn * turn}.` }] },
]).flat();
const sessionsDir = await mkdtemp(join(tmpdir(), 'nexus-agents-bench-sessions-'));
const sessionsPool = new AgentPool({ settings, families, cwd, stateDir: sessionsDir });
await mkdir(join(sessionsDir, 'sessions'), { recursive: true, mode: 0o700 });
await writeFile(
  join(sessionsDir, 'sessions', 'long.json'),
  JSON.stringify({
    schema_version: 1,
    agent_id: 'long',
    created_at: new Date().toISOString(),
    modified_at: new Date().toISOString(),
    model: 'fast',
    system_prompt: 'Bench.',
    cwd,
    permission_level: 'sandboxed',
    preset: 'sandboxed',
    disabled_tools: [],
    write_paths: [],
    parent_agent_id: null,
    messages: history,
    token_usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  }),
);
const bareCall = (messages: ModelMessage[]) => async () => {
  const result = streamText({ model, instructions: 'Bench.', messages: [...messages, { role: 'user', content: ONE_STEP }], tools });
  for await (const _part of result.stream);
};
const bare = await sampleInterleaved(
  { 'bare streamText, no history': bareCall([]), [`bare streamText, ${HISTORY_TURNS}-turn history`]: bareCall(history) },
  { runs: HISTORY_ROUNDS, warmUp: 3 },
);
const sdkPerStep = median(bare[`bare streamText, ${HISTORY_TURNS}-turn history`]) - median(bare['bare streamText, no history']);
let freshCount = 0;
const sendTo = (id: string, content: string) => () => sessionsPool.call('send', { content }, TOKEN_HOLDER, id);
// Fresh agents are made ahead, outside the timings.
const freshAgents = async (count: number) => {
  for (let made = 0; made < count; made++)
    await sessionsPool.call('create_agent', { agent_id: `fresh-${freshCount + made + 1}` }, TOKEN_HOLDER);
};
const freshSend = (content: string) => () => sessionsPool.call('send', { content }, TOKEN_HOLDER, `fresh-${++freshCount}`);
for (const [steps, content] of [
  [1, ONE_STEP],
  [STEPS, 'Go.'],
] as const) {
  await freshAgents(HISTORY_ROUNDS + 3);
  const samples = await sampleInterleaved(
    { 'fresh agent': freshSend(content), [`${HISTORY_TURNS}-turn history`]: sendTo('long', content) },
    { runs: HISTORY_ROUNDS, warmUp: 3 },
  );
  console.log(`\nSessions, a ${steps}-step send through the pool:`);
  printRatios(samples, 'fresh agent');
  const longer = median(samples[`${HISTORY_TURNS}-turn history`]) - median(samples['fresh agent']);
  console.log(
    `  the history adds ${longer.toFixed(2)} ms per send; the AI SDK and the stand-in alone add ${sdkPerStep.toFixed(2)} ms a step ` +
      `(bare streamText), so Nexus adds ${(longer - sdkPerStep * steps).toFixed(2)} ms (goal ≤ 5 ms)`,
  );
}
console.log(`\nA bare streamText call with and without the ${HISTORY_TURNS}-turn history (the AI SDK and the stand-in):`);
printRatios(bare, 'bare streamText, no history');
sessionsPool.close();
await rm(sessionsDir, { recursive: true, force: true });

await llm.close();
