// The first `get_tokens` of a server process loads the tokenizer. This measures, in a fresh process,
// how long the server's event loop stalls meanwhile: the longest event-loop delay while it runs,
// and the slowest of the `list_agents` sent one after another meanwhile (no pass/fail; run it a few
// times, each run is one process: `node --import tsx packages/agents/bench/first-get-tokens.ts`).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { fsSkills } from '@nexus/skills-fs';
import { AgentPool, parseAgentSettings, serveAgents } from '../src/index.js';

const dir = await mkdtemp(join(tmpdir(), 'nexus-first-tokens-'));
const settings = parseAgentSettings({
  providers: { local: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } },
  models: { fast: { provider: 'local', id: 'test-model' } },
  defaultModel: 'fast',
});
const pool = new AgentPool({ settings, families: [fsSkills], cwd: dir, stateDir: dir, env: {} });
const server = await serveAgents(pool, { port: 0, env: {}, stateDir: dir });
const call = async (method: string, path = '/') => {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: method === 'create_agent' ? { agent_id: 'a' } : {} }),
  });
  return response.json();
};
await call('create_agent');
await call('list_agents');

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const started = performance.now();
let done = false;
const tokens = call('get_tokens', '/agent/a').then(() => {
  done = true;
  return performance.now() - started;
});
let listed = 0;
while (!done) {
  const sent = performance.now();
  await call('list_agents');
  listed = Math.max(listed, performance.now() - sent);
  await delay(5);
}
const first = await tokens;
loop.disable();
const second = performance.now();
await call('get_tokens', '/agent/a');
const again = performance.now() - second;

console.log(
  `first get_tokens ${first.toFixed(0)} ms; slowest list_agents meanwhile ${listed.toFixed(0)} ms; ` +
    `longest event-loop delay meanwhile ${(loop.max / 1e6).toFixed(0)} ms; second get_tokens ${again.toFixed(1)} ms`,
);
await server.close();
await rm(dir, { recursive: true, force: true });
