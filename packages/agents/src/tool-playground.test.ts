import { readFile } from 'node:fs/promises';
import { agentSkills } from '@nexus/skills-agents';
import { fsSkills } from '@nexus/skills-fs';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentPool, parseAgentSettings, TOKEN_HOLDER } from './index.js';

let dir: TestDir | undefined;
let pool: AgentPool | undefined;
afterEach(async () => {
  await pool?.close();
  await dir?.cleanup();
});

/** A pool with the file skills and no model configured at all. */
async function modelless() {
  dir = await testdir({ work: { 'notes.md': '# Notes\n' }, state: {} });
  pool = new AgentPool({
    settings: parseAgentSettings({}),
    families: [fsSkills, agentSkills],
    cwd: dir.join('work'),
    stateDir: dir.join('state'),
    env: {},
  });
  return { pool, dir };
}

interface Listed {
  tools: Array<{ name: string; description: string; parameters: { properties?: Record<string, unknown> } }>;
}

describe('the tools playground methods (docs/console.md)', () => {
  it('list_tools gives the tools a preset enables, with their JSON Schemas, with no model configured', async () => {
    const { pool } = await modelless();
    const sandboxed = await pool.call('list_tools', {}, TOKEN_HOLDER);
    const trusted = await pool.call('list_tools', { preset: 'trusted' }, TOKEN_HOLDER);

    const names = (listed: unknown) => (listed as Listed).tools.map((tool) => tool.name);
    expect(names(sandboxed)).toContain('read_file');
    expect(names(sandboxed)).not.toContain('write_file');
    expect(names(trusted)).toContain('write_file');
    const readFileTool = (sandboxed as Listed).tools.find((tool) => tool.name === 'read_file');
    expect(readFileTool?.description).toBeTruthy();
    expect(readFileTool?.parameters.properties).toHaveProperty('path');
  });

  it('run_tool runs a tool through the registry at the preset and answers its ToolResult', async () => {
    const { pool, dir } = await modelless();
    expect(await pool.call('run_tool', { name: 'read_file', arguments: { path: 'notes.md' } }, TOKEN_HOLDER)).toMatchObject({
      success: true,
      output: expect.stringContaining('# Notes'),
    });
    expect(await pool.call('run_tool', { name: 'write_file', arguments: { path: 'x.md', content: 'x' } }, TOKEN_HOLDER)).toMatchObject({
      success: false,
    });
    await expect(readFile(dir.join('work', 'x.md'))).rejects.toThrow(/ENOENT/);
    expect(
      await pool.call('run_tool', { preset: 'trusted', name: 'write_file', arguments: { path: 'x.md', content: 'x' } }, TOKEN_HOLDER),
    ).toMatchObject({ success: true });
    expect(await readFile(dir.join('work', 'x.md'), 'utf8')).toBe('x');
    // Outside the directory a trusted agent asks first; nobody is asked here, so it is refused.
    const outside = dir.join('outside.md');
    expect(
      await pool.call('run_tool', { preset: 'trusted', name: 'write_file', arguments: { path: outside, content: 'x' } }, TOKEN_HOLDER),
    ).toMatchObject({
      success: false,
    });
    await expect(readFile(outside)).rejects.toThrow(/ENOENT/);
    expect(await pool.call('run_tool', { name: 'read_file', arguments: { nope: 1 } }, TOKEN_HOLDER)).toMatchObject({ success: false });
  });

  it('refuses yolo, unknown params, and an agent path', async () => {
    const { pool } = await modelless();
    await expect(pool.call('list_tools', { preset: 'yolo' }, TOKEN_HOLDER)).rejects.toThrow(/yolo/);
    await expect(pool.call('run_tool', { name: 'read_file', extra: 1 }, TOKEN_HOLDER)).rejects.toThrow(/Invalid params/);
    await expect(pool.call('list_tools', {}, TOKEN_HOLDER, 'someone')).rejects.toThrow(/Method not found/);
  });

  it('the agent-control tools act on this server as the token holder', async () => {
    const { pool } = await modelless();
    const status = (await pool.call(
      'run_tool',
      { preset: 'trusted', name: 'nexus_status', arguments: { agent_id: 'ghost' } },
      TOKEN_HOLDER,
    )) as {
      success: boolean;
      error: string;
    };
    expect(status.success).toBe(false);
    expect(status.error).toMatch(/No agent "ghost"/);
  });
});
