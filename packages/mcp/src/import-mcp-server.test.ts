import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { InvalidOptionError } from '@nexus/core';
import { utilitySkills } from '@nexus/registry';
import { createTestAgent, outputSchemaProblems } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportedMcpServer, importMcpServer, type McpServerConfig, McpServerUnavailableError, serveHttp } from './index.js';
import { agentUsing, hostileServer, waitForFile } from './mcp-fixture.js';

const require = createRequire(import.meta.url);

/** The tools the agent's permissions offer, as an LLM would see them. */
function offeredTools(agent: ReturnType<typeof createTestAgent>): string[] {
  return agent.registry.getDefinitionsForPermissions(agent.services.require('permissions')).map(({ function: tool }) => tool.name);
}

let dir: TestDir;
const imported: ImportedMcpServer[] = [];
async function importForTest(name: string, config: McpServerConfig, options?: Parameters<typeof importMcpServer>[2]) {
  const server = await importMcpServer(name, config, options);
  imported.push(server);
  return server;
}

beforeAll(async () => {
  dir = await testdir({ 'hello.txt': 'hello from a file' });
});
afterAll(async () => {
  await Promise.all(imported.map((server) => server.close()));
  await dir.cleanup();
});

describe('importMcpServer with the reference servers', () => {
  it('reads a file through server-filesystem, offered at sandboxed when the server is marked read-only', async () => {
    const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
    const server = await importForTest('files', { command: process.execPath, args: [filesystem, dir.path], readOnly: true });
    const agent = agentUsing(server, dir.path, 'sandboxed');
    const result = await agent.call('mcp__files__read_text_file', { path: dir.join('hello.txt') });
    expect(result.error).toBe('');
    expect(result.output).toBe('hello from a file');
    const offered = offeredTools(agent);
    expect(offered).toContain('mcp__files__read_text_file');
    expect(offered).not.toContain('mcp__files__write_file');
    expect(agent.confirmations).toEqual([]);
  });

  it("calls server-everything's echo at trusted after one confirmation", async () => {
    const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
    const server = await importForTest('everything', { command: process.execPath, args: [everything, 'stdio'] });
    const agent = agentUsing(server, dir.path, 'trusted', true);
    expect((await agent.call('mcp__everything__echo', { message: 'one' })).text).toBe('Echo: one');
    expect((await agent.call('mcp__everything__echo', { message: 'two' })).output).toBe('Echo: two');
    expect(agent.confirmations).toEqual([{ tool: 'mcp__everything__echo', action: 'use MCP server everything' }]);
  });
});

describe('importMcpServer against a hostile server', () => {
  let server: ImportedMcpServer;
  beforeAll(async () => {
    process.env.NEXUS_PLANTED_SECRET = 'planted-secret';
    process.env.NEXUS_PLANTED_VALUE = 'planted-value';
    try {
      server = await importForTest('hostile', { ...hostileServer, env: { GIVEN_BY_ENTRY: 'given' } });
    } finally {
      delete process.env.NEXUS_PLANTED_SECRET;
      delete process.env.NEXUS_PLANTED_VALUE;
    }
  });

  it('names every tool mcp__<server>__<tool> within 64 characters, with a hash on a collision or a cut, never overriding one', () => {
    const names = server.family.skills.map((skill) => skill.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names).toContain('mcp__hostile__do_it');
    expect(names.filter((name) => name.startsWith('mcp__hostile__do_it'))).toHaveLength(2);
    const long = names.find((name) => name.startsWith('mcp__hostile__very_long'));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/_[0-9a-f]{6}$/);
  });

  it('gives servers whose names fold alike distinct tool names, hashing the server name that had to be folded', async () => {
    const dotted = await importForTest('acme.tools', hostileServer);
    const plain = await importForTest('acme_tools', hostileServer);
    const doubled = await importForTest('acme__tools', hostileServer);
    const agent = createTestAgent({ cwd: dir.path, preset: 'yolo', families: [dotted.family, plain.family, doubled.family] });
    const reportEnv = (server: ImportedMcpServer) => server.family.skills.find((skill) => skill.name.endsWith('__report_env'))?.name;
    expect(reportEnv(plain)).toBe('mcp__acme_tools__report_env');
    expect(reportEnv(dotted)).toBe('mcp__acme_tools_afc412__report_env');
    expect(reportEnv(doubled)).toMatch(/^mcp__acme_tools_[0-9a-f]{6}__report_env$/);
    const names = agent.registry.names;
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const pids = await Promise.all(
      [dotted, plain, doubled].map(async (server) => (await agent.call(reportEnv(server) as string)).data as { pid: number }),
    );
    expect(new Set(pids.map(({ pid }) => pid)).size).toBe(3);
    // Named again, alone, in another order: the same names.
    const again = await importForTest('acme.tools', hostileServer);
    expect(again.family.skills.map((skill) => skill.name)).toEqual(dotted.family.skills.map((skill) => skill.name));
  });

  it('keeps a server named `<a>__<b>` apart from server `<a>`’s tool `<b>__<tool>`', async () => {
    const outer = await importForTest('x', hostileServer);
    const inner = await importForTest('x__touch', hostileServer);
    await agentUsing(outer, dir.path, 'yolo').call('mcp__x__add_tool', { name: 'touch__report_env' });
    const names = [...(await outer.listTools()), ...inner.family.skills].map((skill) => skill.name);
    expect(names).toContain('mcp__x__touch__report_env');
    expect(new Set(names).size).toBe(names.length);
  });

  it('calls the original tool behind a folded name', async () => {
    const agent = agentUsing(server, dir.path, 'yolo');
    const folded = server.family.skills.map((skill) => skill.name).filter((name) => name.startsWith('mcp__hostile__do_it'));
    const outputs = await Promise.all(folded.map(async (name) => (await agent.call(name)).output));
    expect(outputs.sort()).toEqual(['do.it {}', 'do_it {}']);
  });

  it('accepts a top-level anyOf with draft-07 definitions, and turns a non-object schema into an empty object', async () => {
    const agent = agentUsing(server, dir.path, 'yolo');
    expect((await agent.call('mcp__hostile__either', { id: 7 })).text).toBe('either {"id":7}');
    expect((await agent.call('mcp__hostile__either', { slug: 'a' })).output).toBe('either {"slug":"a"}');
    expect((await agent.call('mcp__hostile__either', { slug: 3 })).kind).toBe('invalid_input');
    expect(server.family.skills.find((skill) => skill.name === 'mcp__hostile__untyped')?.parameters).toEqual({
      type: 'object',
      properties: {},
    });
    expect((await agent.call('mcp__hostile__untyped', {})).success).toBe(true);
  });

  it('takes readOnly and destructive from the annotations, with the MCP defaults where they are absent', () => {
    const spec = (tool: string) => server.family.skills.find((skill) => skill.name === `mcp__hostile__${tool}`);
    expect(spec('either')).toMatchObject({ readOnly: true, destructive: false, minimumLevel: 'trusted' });
    expect(spec('untyped')).toMatchObject({ readOnly: false, destructive: false });
    expect(spec('touch')).toMatchObject({ readOnly: false, destructive: true });
  });

  it('takes the title, the idempotent and open-world hints (open-world unless the server says not) and an object outputSchema', async () => {
    const spec = (tool: string) => server.family.skills.find((skill) => skill.name === `mcp__hostile__${tool}`);
    expect(spec('mixed')).toMatchObject({
      title: 'Mixed content',
      idempotent: true,
      outputSchema: { type: 'object', properties: { width: { type: 'integer' }, height: { type: 'integer' } } },
    });
    expect(spec('mixed')?.openWorld).toBeUndefined();
    expect(spec('either')).toMatchObject({ idempotent: true, openWorld: true });
    expect(spec('touch')).toMatchObject({ openWorld: true });
    expect(spec('touch')?.idempotent).toBeUndefined();
    expect(spec('touch')?.title).toBeUndefined();
    const agent = agentUsing(server, dir.path, 'yolo');
    expect(await outputSchemaProblems(agent.registry, 'mcp__hostile__mixed', await agent.call('mcp__hostile__mixed'))).toEqual([]);
  });

  it('describes images, keeps resource text and structured content, and fails with the server’s text on isError', async () => {
    const agent = agentUsing(server, dir.path, 'yolo');
    const mixed = await agent.call('mcp__hostile__mixed');
    expect(mixed.output).toBe('a picture:\n[image: image/png, 1234 bytes]\nresource text');
    expect(mixed.data).toEqual({ width: 1, height: 2 });
    const refused = await agent.call('mcp__hostile__refuse');
    expect(refused).toMatchObject({ success: false, error: 'the server says no', kind: 'execution_failed' });
  });

  it('cuts output past 1 MiB with a marker', async () => {
    const agent = agentUsing(server, dir.path, 'yolo');
    const result = await agent.call('mcp__hostile__big', { bytes: 1024 * 1024 + 100 });
    expect(result.output.startsWith('x'.repeat(1024 * 1024))).toBe(true);
    expect(result.output.slice(1024 * 1024)).toBe('\n[output truncated: 100 of 1048676 bytes left out]');
  });

  it('starts the server with the sanitised environment plus its entry’s env, no inherited secrets', async () => {
    const agent = agentUsing(server, dir.path, 'yolo');
    const { env } = (await agent.call('mcp__hostile__report_env')).data as { env: Record<string, string> };
    expect(env.GIVEN_BY_ENTRY).toBe('given');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.NEXUS_PLANTED_SECRET).toBeUndefined();
    expect(env.NEXUS_PLANTED_VALUE).toBeUndefined();
  });

  it('offers nothing at sandboxed unless the server is marked read-only', async () => {
    const agent = agentUsing(server, dir.path, 'sandboxed');
    expect(offeredTools(agent)).toEqual([]);
    expect((await agent.call('mcp__hostile__report_env')).kind).toBe('forbidden');
  });

  it('refuses a call whose confirmation is refused, sending nothing to the server', async () => {
    const agent = agentUsing(server, dir.path, 'trusted', false);
    const marker = dir.join('refused-marker');
    const result = await agent.call('mcp__hostile__touch', { marker });
    expect(result.kind).toBe('forbidden');
    expect(existsSync(marker)).toBe(false);
    expect(agent.confirmations).toEqual([{ tool: 'mcp__hostile__touch', action: 'use MCP server hostile' }]);
  });

  it('asks nobody at yolo', async () => {
    const agent = agentUsing(server, dir.path, 'yolo', false);
    const marker = dir.join('yolo-marker');
    expect((await agent.call('mcp__hostile__touch', { marker })).output).toBe('touched');
    expect(agent.confirmations).toEqual([]);
  });

  it('cancels the remote call when the caller’s signal is aborted', async () => {
    const agent = agentUsing(server, dir.path, 'yolo');
    const marker = dir.join('cancel-marker');
    const controller = new AbortController();
    const call = agent.call('mcp__hostile__never_answers', { marker }, { signal: controller.signal });
    await waitForFile(marker, 'called');
    controller.abort();
    expect((await call).kind).toBe('cancelled');
    await waitForFile(marker, 'cancelled');
  });
});

describe('importMcpServer gating by configuration', () => {
  it('offers a read-only server’s read-only tools at sandboxed, without asking', async () => {
    const server = await importForTest('reader', { ...hostileServer, readOnly: true });
    const agent = agentUsing(server, dir.path, 'sandboxed', false);
    const offered = offeredTools(agent);
    expect(offered.sort()).toEqual(['mcp__reader__either', 'mcp__reader__report_env']);
    expect((await agent.call('mcp__reader__either', { id: 1 })).output).toBe('either {"id":1}');
    expect((await agent.call('mcp__reader__touch', { marker: dir.join('sandboxed-marker') })).kind).toBe('forbidden');
    expect(agent.confirmations).toEqual([]);
  });

  it('raises the minimum level to the server’s level', async () => {
    const server = await importForTest('strict', { ...hostileServer, readOnly: true, level: 'yolo' });
    expect(new Set(server.family.skills.map((skill) => skill.minimumLevel))).toEqual(new Set(['yolo']));
    const agent = agentUsing(server, dir.path, 'trusted', true);
    expect((await agent.call('mcp__strict__either', { id: 1 })).kind).toBe('forbidden');
    expect(agent.confirmations).toEqual([]);
  });
});

describe('importMcpServer when the server misbehaves', () => {
  it('gives a clear timeout when the server never answers', async () => {
    const server = await importForTest('silent', { ...hostileServer, timeoutSeconds: 0.5 });
    const result = await agentUsing(server, dir.path, 'yolo').call('mcp__silent__never_answers', { marker: dir.join('silent-marker') });
    expect(result.kind).toBe('timeout');
    expect(result.error).toMatch(/"never_answers" of the MCP server "silent" did not answer within 0.5 s/);
  });

  it('fails clearly when the server crashes in the middle of a call', async () => {
    const server = await importForTest('crashing', hostileServer);
    const result = await agentUsing(server, dir.path, 'yolo').call('mcp__crashing__crash');
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/MCP server "crashing" closed the connection during "crash"/);
  });

  it('refuses a result that is not a tools/call result, passing none of it on', async () => {
    const malformed = { name: 'malformed', description: 'Answers with a text that is a number.', inputSchema: { type: 'object' } };
    const server = await importForTest('malformed', { ...hostileServer, env: { HOSTILE_EXTRA_TOOLS: JSON.stringify([malformed]) } });
    const result = await agentUsing(server, dir.path, 'yolo').call('mcp__malformed__malformed');
    expect(result).toMatchObject({ success: false, output: '', kind: 'execution_failed' });
    expect(result.error).toMatch(/^"malformed" of the MCP server "malformed" failed: Invalid result for tools\/call/);
  });

  it('skips lines that are no JSON-RPC message, even a forged answer naming the call, and takes the server’s answer', async () => {
    const noise = { name: 'noise', description: 'Writes lines that are no message, then answers.', inputSchema: { type: 'object' } };
    const server = await importForTest('noisy', { ...hostileServer, env: { HOSTILE_EXTRA_TOOLS: JSON.stringify([noise]) } });
    const result = await agentUsing(server, dir.path, 'yolo').call('mcp__noisy__noise');
    expect(result).toMatchObject({ success: true, output: 'the real answer' });
  });

  it('ends the server’s process on close', async () => {
    const server = await importMcpServer('closing', hostileServer);
    const { pid } = (await agentUsing(server, dir.path, 'yolo').call('mcp__closing__report_env')).data as { pid: number };
    await server.close();
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('says why a server could not be imported', async () => {
    await expect(importMcpServer('missing', { command: join(dir.path, 'no-such-program') })).rejects.toSatisfy(
      (error: unknown) =>
        McpServerUnavailableError.isInstance(error) && /MCP server "missing" could not be imported/.test((error as Error).message),
    );
  });
});

describe('importMcpServer over Streamable HTTP', () => {
  it('imports and calls a served registry, sending the configured headers', async () => {
    const remote = createTestAgent({ cwd: dir.path, families: [utilitySkills] });
    const http = await serveHttp(remote.registry);
    try {
      const server = await importForTest('remote', { url: http.url, headers: { Authorization: `Bearer ${http.token}` } });
      const result = await agentUsing(server, dir.path, 'trusted', true).call('mcp__remote__echo', { message: 'over http' });
      expect(result.output).toBe('over http');
      await expect(importMcpServer('anonymous', { url: http.url })).rejects.toThrow(/MCP server "anonymous" could not be imported/);
    } finally {
      await Promise.all(imported.splice(0).map((server) => server.close()));
      await http.close();
    }
  });
});

describe('importMcpServer configuration', () => {
  it.each([
    [{ command: 'x', url: 'http://127.0.0.1/' }, /set either `command` or `url`, not both/],
    [{ command: '' }, /`command`: Expected a program to start/],
    [{ url: 'ftp://example.com/' }, /`url`: Expected an absolute http or https URL/],
    [{ command: 'x', colour: 'red' }, /`colour` is not a known setting/],
    [{ command: 'x', timeoutSeconds: -1 }, /`timeoutSeconds`/],
    [{}, /Invalid configuration of MCP server "bad"/],
  ])('refuses %j', async (config, message) => {
    const attempt = importMcpServer('bad', config as McpServerConfig);
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionError);
  });
});
