// The console's two quality bars (docs/console.md), measured in Debian's Chromium against a real
// agent server on 127.0.0.1: the first paint of the agents page with 100 agents (goal < 1 s), and
// the delay from a tool result in the server to the page showing it (goal < 100 ms).
// Run: pnpm --filter @nexus/console bench (after a build).
import { AgentPool, parseAgentSettings, serveAgents } from '@nexus/agents';
import { fsSkills } from '@nexus/skills-fs';
import { startLlmStandIn, testdir } from '@nexus/test-utils';
import { chromium } from 'playwright-core';
import { consoleAssetsDir } from '../src/index.js';

const AGENTS = 100;
const TOOL_CALLS = 30;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;
const now = () => performance.timeOrigin + performance.now();

const llm = await startLlmStandIn();
const dir = await testdir({ work: { 'notes.md': '# Notes\n' }, state: {} });
const settings = parseAgentSettings({
  providers: { local: { type: 'openai-compatible', baseUrl: llm.url } },
  models: { fast: { provider: 'local', id: 'test-model' } },
  defaultModel: 'fast',
});
const pool = new AgentPool({ settings, families: [fsSkills], cwd: dir.join('work'), stateDir: dir.join('state'), env: {} });
const server = await serveAgents(pool, { port: 0, env: {}, stateDir: dir.join('state'), console: { assetsDir: consoleAssetsDir } });
const call = async (method: string, params: object, agentId?: string) => {
  const response = await fetch(`${server.url}${agentId ? `/agent/${agentId}` : '/'}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: unknown };
};
// Ten trusted parents with nine sandboxed children each: 100 agents in a two-level tree.
for (let parent = 0; parent < 10; parent++) {
  await call('create_agent', { agent_id: `lead-${parent}`, preset: 'trusted' });
  for (let child = 0; child < 9; child++)
    await call('create_agent', { agent_id: `worker-${parent}-${child}`, parent_agent_id: `lead-${parent}` });
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
try {
  // First paint with 100 agents: from navigation start to all 100 rows on screen.
  // Noted in the page itself, from its first script on: this process also runs the server, whose
  // work (counting tokens for the tree) would delay anything this process polls.
  const page = await browser.newPage();
  await page.addInitScript((count) => {
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll('li[data-agent]').length < count) return;
      observer.disconnect();
      requestAnimationFrame(() => {
        (globalThis as unknown as { painted: number }).painted = performance.now();
      });
    });
    document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
  }, AGENTS);
  await page.goto(server.consoleUrl as string);
  const painted = (await (await page.waitForFunction(() => (globalThis as unknown as { painted?: number }).painted)).jsonValue()) as number;
  console.log(`agents page, ${AGENTS} agents: all rows painted ${painted.toFixed(0)} ms after navigation start (goal < 1000 ms)`);

  // Tool result → screen: the server's `change` event against the page's paint of that result.
  await page.evaluate(() => {
    location.hash = '#/agent/lead-0';
  });
  await page.getByLabel('Message').waitFor();
  await page.evaluate(() => {
    const seen: number[] = [];
    (globalThis as unknown as { seen: number[] }).seen = seen;
    new MutationObserver(() => {
      const shown = document.querySelectorAll('li.call .output').length;
      // Painted: the next animation frame after the DOM change.
      while (seen.length < shown) {
        const index = seen.length;
        seen.push(Number.NaN);
        requestAnimationFrame(() => {
          seen[index] = performance.timeOrigin + performance.now();
        });
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  const resultAt: number[] = [];
  pool.on('change', (change) => {
    if (change.name === 'tool_result') resultAt.push(now());
  });
  llm.script(...Array.from({ length: TOOL_CALLS }, () => ({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] })), {
    text: 'Read.',
  });
  await call('send', { content: 'Read the notes, many times.' }, 'lead-0');
  await page.waitForFunction(
    (count) => (globalThis as unknown as { seen: number[] }).seen.filter(Number.isFinite).length >= count,
    TOOL_CALLS,
  );
  const seen = (await page.evaluate(() => (globalThis as unknown as { seen: number[] }).seen)) as number[];
  const delays = resultAt.map((at, index) => (seen[index] as number) - at);
  console.log(
    `tool result → screen over ${delays.length} results: median ${percentile(delays, 0.5).toFixed(1)} ms, p95 ${percentile(delays, 0.95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms (goal < 100 ms)`,
  );
} finally {
  await browser.close();
  await server.close();
  await llm.close();
  await dir.cleanup();
}
