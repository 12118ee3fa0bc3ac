import { defineSkill, type SkillProgress, ToolResult } from '@nexus/core';
import type { RegistryChange } from '@nexus/registry';
import { createTestAgent } from '@nexus/registry/testing';
import { type TestDir, testdir, waitUntil } from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportedMcpServer, importMcpServer, type McpServerConfig } from './index.js';
import { agentUsing, type HostileHttpServer, hostileServer, startHostileHttpServer } from './mcp-fixture.js';

const MiB = 1024 * 1024;

/** How much the process's resident memory grew at most while `work` ran (sampled every 5 ms). */
async function rssGrowth(work: () => Promise<void>): Promise<number> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - before;
}

let dir: TestDir;
const imported: ImportedMcpServer[] = [];
async function importForTest(name: string, config: McpServerConfig = hostileServer) {
  const server = await importMcpServer(name, config);
  imported.push(server);
  return server;
}

beforeAll(async () => {
  dir = await testdir({});
});
afterAll(async () => {
  await Promise.all(imported.map((server) => server.close()));
  await dir.cleanup();
});

describe('an imported server that crashes', () => {
  it('fails the call that saw the crash, starts again at the next call, and gives up after 3 restarts in 5 minutes', async () => {
    const server = await importForTest('phoenix');
    const agent = agentUsing(server, dir.path, 'yolo');
    const pidOf = async () => ((await agent.call('mcp__phoenix__report_env')).data as { pid: number }).pid;
    const first = await pidOf();

    const crashed = await agent.call('mcp__phoenix__crash');
    expect(crashed).toMatchObject({ success: false, kind: 'execution_failed' });
    expect(crashed.error).toBe(
      'The MCP server "phoenix" closed the connection during "crash" (it exited or crashed); it is started again at the next call.',
    );
    expect(server.status).toMatchObject({ state: 'stopped', lastError: 'the server exited or closed the connection' });

    const second = await pidOf();
    expect(second).not.toBe(first);
    expect(server.status.state).toBe('running');

    // Restarts 2 and 3 happen at these calls, which crash the server again.
    expect((await agent.call('mcp__phoenix__crash')).success).toBe(false);
    expect((await agent.call('mcp__phoenix__crash')).success).toBe(false);
    expect((await agent.call('mcp__phoenix__crash')).success).toBe(false);

    const refused = await agent.call('mcp__phoenix__report_env');
    expect(refused.error).toBe(
      'The MCP server "phoenix" failed and is not restarted (it stopped more than 3 times within 5 minutes); last error: the server exited or closed the connection.',
    );
    expect(server.status).toMatchObject({ name: 'phoenix', transport: 'stdio', state: 'failed', toolCount: 16 });
    await expect(server.listTools()).rejects.toThrow(/failed and is not restarted/);
  });
});

describe('progress from an imported server', () => {
  it('resets the server’s time limit and extends the registry’s, and reaches onProgress', async () => {
    const server = await importForTest('patient', { ...hostileServer, timeoutSeconds: 0.4 });
    const agent = createTestAgent({ cwd: dir.path, preset: 'yolo', families: [server.family] });
    const progress: SkillProgress[] = [];
    // 8 steps of 150 ms: 1.2 s in all, more than both the server's 0.4 s and the registry's 0.5 s.
    const result = await agent.call(
      'mcp__patient__progress',
      { steps: 8, intervalMs: 150 },
      { timeoutMs: 500, onProgress: (report) => progress.push(report) },
    );
    expect(result).toMatchObject({ success: true, output: '8 steps' });
    // The SDK hands a notification on a tick later than a response, so the last report may come after the answer and be dropped.
    expect(progress.slice(0, 7).map(({ current, total }) => [current, total])).toEqual([1, 2, 3, 4, 5, 6, 7].map((step) => [step, 8]));
  });

  it('stops a call at maxTotalSeconds however much progress comes, and tells the server', async () => {
    const server = await importForTest('chatty', { ...hostileServer, timeoutSeconds: 5, maxTotalSeconds: 0.5 });
    const result = await agentUsing(server, dir.path, 'yolo').call('mcp__chatty__progress', { steps: 1000, intervalMs: 20 });
    expect(result).toMatchObject({
      kind: 'timeout',
      error: '"progress" of the MCP server "chatty" did not finish within 0.5 s (the server\'s `maxTotalSeconds`); it was cancelled.',
    });
    expect((await agentUsing(server, dir.path, 'yolo').call('mcp__chatty__either', { id: 1 })).output).toBe('either {"id":1}');
  });
});

describe('large results from an imported server', () => {
  it('receives a 60 MiB result and cuts it to 1 MiB of text with a marker', async () => {
    const server = await importForTest('large');
    const result = await agentUsing(server, dir.path, 'yolo').call('mcp__large__big', { bytes: 60 * MiB });
    expect(result.success).toBe(true);
    expect(result.output).toHaveLength(MiB + '\n[output truncated: 61865984 of 62914560 bytes left out]'.length);
    expect(result.output.endsWith('x\n[output truncated: 61865984 of 62914560 bytes left out]')).toBe(true);
  }, 60_000);

  it('fails a call whose answer is over 64 MiB with bounded memory, and the server stays usable', async () => {
    const server = await importForTest('flooding');
    const agent = agentUsing(server, dir.path, 'yolo');
    const grown = await rssGrowth(async () => {
      // A raw line with the id first, then an SDK-written answer with the id last.
      const flooded = await agent.call('mcp__flooding__flood', { bytes: 400 * MiB });
      expect(flooded).toMatchObject({ success: false, kind: 'execution_failed' });
      expect(flooded.error).toMatch(/^"flood" of the MCP server "flooding" failed: .*over the limit of 67108864 bytes; it was dropped\.$/);
      const big = await agent.call('mcp__flooding__big', { bytes: 70 * MiB });
      expect(big.error).toMatch(/^"big" of the MCP server "flooding" failed: .*over the limit of 67108864 bytes; it was dropped\.$/);
    });
    // 470 MiB went through; holding the 400 MiB line (and its text) would take more than this by
    // itself. Bounded, it is about 130 MiB at most: the rest is a margin for a busy garbage collector.
    expect(grown).toBeLessThan(300 * MiB);
    expect((await agent.call('mcp__flooding__either', { id: 2 })).output).toBe('either {"id":2}');
    expect(server.status.state).toBe('running');
  }, 120_000);
});

describe.each([
  { answers: 'with an event stream', json: false, name: 'sse' },
  { answers: 'with application/json', json: true, name: 'json' },
])('large results from an imported Streamable HTTP server answering $answers', ({ json, name }) => {
  let http: HostileHttpServer;
  beforeAll(async () => {
    http = await startHostileHttpServer(json);
  });
  afterAll(() => http.stop());

  it('receives a 60 MiB result and cuts it to 1 MiB of text with a marker', async () => {
    const server = await importForTest(`large_${name}`, http.config);
    const result = await agentUsing(server, dir.path, 'yolo').call(`mcp__large_${name}__big`, { bytes: 60 * MiB });
    expect(result.success).toBe(true);
    expect(result.output).toHaveLength(MiB + '\n[output truncated: 61865984 of 62914560 bytes left out]'.length);
    expect(result.output.endsWith('x\n[output truncated: 61865984 of 62914560 bytes left out]')).toBe(true);
  }, 60_000);

  it('fails a call whose answer is over 64 MiB with bounded memory, and the server stays usable', async () => {
    const server = await importForTest(`flooding_${name}`, http.config);
    const agent = agentUsing(server, dir.path, 'yolo');
    // Connected before measuring: what is measured is what the answers cost.
    expect((await agent.call(`mcp__flooding_${name}__echo`, { id: 1 })).output).toBe('echo {"id":1}');
    const grown = await rssGrowth(async () => {
      // A raw answer with the id first, then an SDK-written answer with the id last.
      const failed = (tool: string, size: string) =>
        new RegExp(
          `^"${tool}" of the MCP server "flooding_${name}" failed: The server sent a message of ${size} bytes, over the limit of 67108864 bytes; it was dropped\\.$`,
        );
      const flooded = await agent.call(`mcp__flooding_${name}__flood`, { bytes: 400 * MiB });
      expect(flooded).toMatchObject({ success: false, kind: 'execution_failed' });
      // A JSON answer is not read past the limit (the raw one has no content-length), so its size is not known.
      expect(flooded.error).toMatch(failed('flood', json ? 'at least 67\\d{6}' : '4194304\\d{2}'));
      const big = await agent.call(`mcp__flooding_${name}__big`, { bytes: 70 * MiB });
      expect(big.error).toMatch(failed('big', '734003\\d{2}'));
    });
    // 470 MiB were sent; up to 64 MiB of an answer is held before it is known to be over the limit, and
    // fetch leaves what it read for the garbage collector (70 MiB and more while 400 MiB stream through
    // without the bound); it peaked at 142 MiB. Holding the flood, as the SDK did, took 780 MiB (JSON)
    // and 1.6 GiB (events); the limit sits between, with a margin for a busy garbage collector.
    expect(grown).toBeLessThan(400 * MiB);
    expect((await agent.call(`mcp__flooding_${name}__echo`, { id: 2 })).output).toBe('echo {"id":2}');
    expect(server.status.state).toBe('running');
  }, 120_000);
});

describe('an imported server whose tools change', () => {
  it('reads the tools again once the server says they changed, and only then; a registry using the family follows', async () => {
    const server = await importForTest('changing');
    const agent = agentUsing(server, dir.path, 'yolo');
    const names = () => server.family.skills.map((skill) => skill.name);
    expect(names()).not.toContain('mcp__changing__added');
    await server.listTools();
    expect((await agent.call('mcp__changing__list_count')).output).toBe('1');

    expect((await agent.call('mcp__changing__add_tool', { name: 'added' })).output).toBe('added');
    await waitUntil(() => agent.registry.has('mcp__changing__added'), 'the registry to follow the server');
    expect((await agent.call('mcp__changing__added')).output).toBe('added {}');
    const listed = await server.listTools();
    expect(listed.map((skill) => skill.name)).toContain('mcp__changing__added');
    expect(names()).toContain('mcp__changing__added');
    expect(server.status.toolCount).toBe(17);
    await server.listTools();
    expect((await agent.call('mcp__changing__list_count')).output).toBe('2');

    const fresh = createTestAgent({ cwd: dir.path, preset: 'yolo', families: [server.family] });
    expect((await fresh.call('mcp__changing__added')).output).toBe('added {}');
  });

  it('tells a registry only of the tools that changed, keeping the others as they were', async () => {
    const server = await importForTest('growing');
    const agent = agentUsing(server, dir.path, 'yolo');
    const changes: RegistryChange[] = [];
    agent.registry.onChange((change) => changes.push(change));
    const touch = agent.registry.getSpec('mcp__growing__touch');
    expect((await agent.call('mcp__growing__add_tool', { name: 'added' })).output).toBe('added');
    await waitUntil(() => agent.registry.has('mcp__growing__added'), 'the registry to follow the server');
    expect(changes).toEqual([{ added: ['mcp__growing__added'], removed: [], changed: [] }]);
    expect(agent.registry.getSpec('mcp__growing__touch')).toBe(touch);
  });

  it('is not kept listing by a server that says its tools changed at every listing', async () => {
    const server = await importForTest('restless', { ...hostileServer, env: { HOSTILE_RESTLESS: '1' } });
    const agent = agentUsing(server, dir.path, 'yolo');
    expect((await agent.call('mcp__restless__report_env')).success).toBe(true);
    await server.listTools();
    const listings = Number((await agent.call('mcp__restless__list_count')).output);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Each call lists the tools again (the server says they changed), and nothing lists them in between.
    expect(Number((await agent.call('mcp__restless__list_count')).output)).toBeLessThanOrEqual(listings + 2);
  });

  it('keeps the registered tools when a registry refuses the new ones, and says why in its status', async () => {
    const server = await importForTest('refused');
    const squatter = defineSkill({
      name: 'mcp__refused__taken',
      description: 'Has the name first.',
      parameters: { type: 'object', properties: {} },
      create: () => () => ToolResult.ok('squatter'),
    });
    const agent = createTestAgent({ cwd: dir.path, preset: 'yolo', families: [server.family, { name: 'other', skills: [squatter] }] });
    expect((await agent.call('mcp__refused__add_tool', { name: 'taken' })).output).toBe('added');
    await waitUntil(() => server.status.lastError !== undefined, 'the refusal in the status');
    expect(server.status.lastError).toBe(
      'its new tools could not be registered: A skill named "mcp__refused__taken" is already registered by another family.',
    );
    expect((await agent.call('mcp__refused__taken')).output).toBe('squatter');
    expect((await agent.call('mcp__refused__report_env')).success).toBe(true);
  });
});
