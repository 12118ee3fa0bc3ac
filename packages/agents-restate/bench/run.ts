// Benchmarks of the Restate runtime against the local one, on the builds (`pnpm build` first), with
// the Restate server of the npm package and the LLM stand-in on loopback. Figures beside a baseline
// from the same run (no pass/fail):
//  1. per-turn overhead: a 1-step and a 5-step `send` through the Restate runtime (one worker)
//     against the same sends through the local runtime (`AgentPool`); goal ≤ 15 ms per turn and
//     ≤ 2 ms per further step (a model step and a tool call: one journal entry when the call is
//     read-only, two when it may write). Twice: with a read-only tool (no acknowledgement waited
//     for) and with one that is not (its call waits for the model step's acknowledgement) — see
//     docs/design-decisions.md, issue 28;
//  2. 100 agents × a 5-step turn over two workers at once (goal: all answered).

import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentPool, parseAgentSettings, TOKEN_HOLDER } from '@nexus/agents';
import { defineSkill, type SkillFamily, ToolResult } from '@nexus/core';
import { type LlmRequestRecord, startLlmStandIn, startRoundRobinProxy } from '@nexus/test-utils';
import { median, time } from '../../../scripts/bench-stats.mjs';
import { startRestateRuntime } from '../dist/index.js';
import { freePort, startRestateServer } from '../dist/testing.js';

const STEPS = 5;
const ONE_STEP = 'Answer.';
const ROUNDS = 50;
const WARM_UP = 5;
const AGENTS = 100;

const noopSkill = defineSkill({
  name: 'noop',
  description: 'Does nothing.',
  parameters: { type: 'object', properties: { step: { type: 'integer' } }, additionalProperties: false },
  readOnly: true,
  create: () => () => ToolResult.ok('done'),
});
const noteSkill = defineSkill({
  name: 'note',
  description: 'Notes a step (not read-only).',
  parameters: { type: 'object', properties: { step: { type: 'integer' } }, additionalProperties: false },
  create: () => () => ToolResult.ok('noted'),
});
const families: SkillFamily[] = [{ name: 'bench', skills: [noopSkill, noteSkill] }];
/** The 5-step turns: their content names the tool each further step calls. */
const FIVE_STEPS = { 'read-only': 'Five steps: noop.', 'not read-only': 'Five steps: note.' } as const;

/** Tool results since the last user message: the steps this turn has made. */
function toolResultCount(request: LlmRequestRecord): number {
  const messages = request.body.messages as Array<{ role: string }>;
  return messages.slice(messages.findLastIndex((message) => message.role === 'user')).filter((message) => message.role === 'tool').length;
}

const dir = await mkdtemp(join(tmpdir(), 'nexus-restate-bench-'));
const llm = await startLlmStandIn();
llm.respondWith((request) => {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  if (messages.findLast((message) => message.role === 'user')?.content === ONE_STEP) return { text: 'Answered.' };
  const done = toolResultCount(request);
  const tool = messages.findLast((message) => message.role === 'user')?.content === FIVE_STEPS['not read-only'] ? 'note' : 'noop';
  return done < STEPS - 1 ? { toolCalls: [{ name: tool, arguments: { step: done + 1 } }] } : { text: 'All steps done.' };
});
const settings = parseAgentSettings({
  providers: { local: { type: 'openai-compatible', baseUrl: llm.url, apiKeyEnv: 'BENCH_KEY' } },
  models: { fast: { provider: 'local', id: 'bench-model' } },
  defaultModel: 'fast',
});
const agentOptions = { settings, families, cwd: dir, env: { BENCH_KEY: 'sk-bench' } };
const restate = await startRestateServer(join(dir, 'restate'));
const firstPort = await freePort();
const local = new AgentPool({ ...agentOptions, stateDir: join(dir, 'state') });
const first = await startRestateRuntime({ ...agentOptions, ingress: restate.ingress, admin: restate.admin, endpointPort: firstPort });

const send = (runtime: AgentPool | typeof first, id: string, content: string) => runtime.call('send', { content }, TOKEN_HOLDER, id);
for (const runtime of [local, first]) await runtime.call('create_agent', { agent_id: 'bench', preset: 'trusted' }, TOKEN_HOLDER);

const sends: Record<string, () => Promise<unknown>> = {
  'local 1-step': () => send(local, 'bench', ONE_STEP),
  'restate 1-step': () => send(first, 'bench', ONE_STEP),
  'local 5-step read-only': () => send(local, 'bench', FIVE_STEPS['read-only']),
  'restate 5-step read-only': () => send(first, 'bench', FIVE_STEPS['read-only']),
  'local 5-step not read-only': () => send(local, 'bench', FIVE_STEPS['not read-only']),
  'restate 5-step not read-only': () => send(first, 'bench', FIVE_STEPS['not read-only']),
};
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sends).map((name) => [name, []]));
for (let round = 0; round < WARM_UP + ROUNDS; round++) {
  for (const [name, run] of Object.entries(sends)) {
    const took = await time(run);
    if (round >= WARM_UP) samples[name]?.push(took);
  }
}
const m = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)])) as Record<string, number>;
const perTurn = (m['restate 1-step'] as number) - (m['local 1-step'] as number);
console.log(`Median of ${ROUNDS} sends each (one worker, its own endpoint: HTTP/2; load average ${loadavg()[0].toFixed(1)}):`);
for (const [name, value] of Object.entries(m)) console.log(`  ${name.padEnd(28)} ${value.toFixed(2).padStart(8)} ms`);
console.log(`  Restate per turn: +${perTurn.toFixed(2)} ms (goal ≤ 15)`);
for (const tool of Object.keys(FIVE_STEPS)) {
  const perStep = ((m[`restate 5-step ${tool}`] as number) - (m[`local 5-step ${tool}`] as number) - perTurn) / (STEPS - 1);
  console.log(`  Restate per further step, a ${tool} tool: +${perStep.toFixed(2)} ms (goal ≤ 2)`);
}

// Two workers: one deployment URL, a round-robin proxy in front of both (HTTP/1.1, request-response).
const workerPorts = [await freePort(), await freePort()];
const proxy = await startRoundRobinProxy(workerPorts);
const [left, right] = await Promise.all(
  workerPorts.map((endpointPort) =>
    startRestateRuntime({ ...agentOptions, ingress: restate.ingress, admin: restate.admin, endpointPort, deploymentUrl: proxy.origin }),
  ),
);
const ids = Array.from({ length: AGENTS }, (_, index) => `many-${index}`);
for (const id of ids) await left.call('create_agent', { agent_id: id, preset: 'trusted' }, TOKEN_HOLDER);
const started = performance.now();
const outcomes = await Promise.allSettled(ids.map((id, index) => send(index % 2 === 0 ? left : right, id, FIVE_STEPS['read-only'])));
const answered = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
console.log(
  `${AGENTS} agents × a ${STEPS}-step turn over two workers: ${answered} answered in ${(performance.now() - started).toFixed(0)} ms`,
);

await Promise.all([local.close(), first.close(), left.close(), right.close()]);
await proxy.close();
await restate.close();
await llm.close();
await rm(dir, { recursive: true, force: true });
