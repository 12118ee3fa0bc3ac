import { readdir, readFile, readlink, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type LlmStandIn, startLlmStandIn, type TestDir, testdir, waitUntil, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';
import { ensureBuilt, nexusEnv, type ServingNexus, standInModelConfig, startNexusServe } from './testing/nexus-process-fixture.js';

beforeAll(ensureBuilt, 180_000);

/** @nexus/mcp's test server, whose `touch` tool writes a marker file. */
const hostileScript = join(dirname(createRequire(import.meta.url).resolve('@nexus/mcp/package.json')), 'test', 'hostile-mcp-server.mjs');

let dir: TestDir;
let llm: LlmStandIn;
const servers: ServingNexus[] = [];

beforeEach(async () => {
  dir = await testdir({ project: {}, config: {}, state: {} });
  llm = await startLlmStandIn();
  await writeTree(dir.join('config', 'nexus'), {
    'nexus.config.json': JSON.stringify(standInModelConfig(llm.url)),
  });
});

afterEach(async () => {
  for (const server of servers.splice(0)) if (server.child.exitCode === null) await server.stop('SIGKILL');
  await llm.close();
  await dir.cleanup();
});

function userConfig(config: object): Promise<void> {
  return writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify({ ...standInModelConfig(llm.url), ...config }) });
}

/** Processes whose command line contains `text`. */
async function processesWith(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(text)) found.push(pid);
  }
  return found;
}

/** Inode numbers of the folders this process watches (`fs.watch` is inotify on Linux), as the kernel lists them. */
async function watchedInodes(): Promise<number[]> {
  const inodes: number[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) !== 'anon_inode:inotify') continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
    for (const [, inode] of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+)/gm)) inodes.push(Number.parseInt(inode as string, 16));
  }
  return inodes;
}

/** Starts `nexus serve --port 0` in the project, with the test's config and state directories. */
async function startServer(args: string[] = []): Promise<ServingNexus> {
  const server = await startNexusServe(args, {
    cwd: dir.join('project'),
    env: nexusEnv(dir.join('config'), { XDG_STATE_HOME: dir.join('state') }),
  });
  servers.push(server);
  return server;
}

async function rpc(server: { url: string; port: number }, path: string, method: string, params: object = {}) {
  const token = (await readFile(dir.join('state', 'nexus', `rpc-${server.port}.token`), 'utf8')).trim();
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
}

describe('nexus serve', () => {
  it('killed with SIGKILL mid-turn, then started again, has lost nothing that was answered, and says the turn was interrupted', async () => {
    const first = await startServer();
    expect((await rpc(first, '/', 'create_agent', { agent_id: 'keeper' })).result).toEqual({ agent_id: 'keeper', url: '/agent/keeper' });
    llm.script({ text: 'Noted: 42.' }, { text: 'this turn never ends', stall: true });
    expect((await rpc(first, '/agent/keeper', 'send', { content: 'My number is 42.' })).result).toMatchObject({ content: 'Noted: 42.' });
    void rpc(first, '/agent/keeper', 'send', { content: 'And now?', request_id: 'lost' }).catch(() => undefined);
    await waitUntil(() => llm.requests.length === 2, 'the second turn to reach the model');
    await first.stop('SIGKILL');

    const second = await startServer();
    const { result } = await rpc(second, '/agent/keeper', 'get_messages');

    expect(result?.messages).toEqual([
      { index: 0, role: 'user', content: 'My number is 42.' },
      { index: 1, role: 'assistant', content: 'Noted: 42.' },
      { index: 2, role: 'user', content: 'And now?' },
    ]);
    expect((await rpc(second, '/agent/keeper', 'wait_for', { request_id: 'lost' })).result).toEqual({
      status: 'interrupted',
      request_id: 'lost',
    });
  });

  it('killed with SIGKILL while a turn waits for approval, then started again: the approval is listed, and approving it completes the turn', async () => {
    const first = await startServer();
    const target = dir.join('outside.txt');
    await rpc(first, '/', 'create_agent', { agent_id: 'w', preset: 'trusted' });
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'after the restart' } }] }, { text: 'Written.' });
    const paused = (await rpc(first, '/agent/w', 'send', { content: 'Write outside.', request_id: 'r' })).result as {
      approvals: Array<{ approval_id: string }>;
    };
    await first.stop('SIGKILL');

    const second = await startServer();
    expect((await rpc(second, '/', 'list_approvals')).result).toEqual({ approvals: paused.approvals });
    const approvalId = paused.approvals[0]?.approval_id;
    expect((await rpc(second, '/agent/w', 'resolve_approval', { approval_id: approvalId, decision: 'approve' })).result).toEqual({
      resolved: true,
      request_id: 'r',
      status: 'approved',
    });

    expect((await rpc(second, '/agent/w', 'wait_for', { request_id: 'r' })).result).toEqual({
      content: 'Written.',
      request_id: 'r',
      halted_at_iteration_limit: false,
    });
    expect(await readFile(target, 'utf8')).toBe('after the restart');
  });

  it('refuses an approval as stale once the skill package of the paused call has changed, and tells the model why', async () => {
    const folder = dir.join('config', 'nexus', 'skills', 'stamp');
    const manifest = (version: string) =>
      `---\nname: stamp\ndescription: Stamps a file, ${version}.\ncategory: write\ncommand: "sh scripts/stamp.sh ${version}"\n---\nStamp it.\n`;
    await writeTree(folder, { 'SKILL.md': manifest('v1'), scripts: { 'stamp.sh': 'echo "stamped $1" > stamped.txt\n' } });
    const server = await startServer(['--families', 'fs,skills']);
    await rpc(server, '/', 'create_agent', { agent_id: 's', preset: 'trusted' });
    llm.script({ toolCalls: [{ name: 'stamp', arguments: {} }] }, { text: 'Not stamped.' });
    const paused = (await rpc(server, '/agent/s', 'send', { content: 'Stamp it.', request_id: 'r' })).result as {
      approvals: Array<{ approval_id: string; tool: string }>;
    };
    expect(paused.approvals.map((approval) => approval.tool)).toEqual(['stamp']);

    await writeTree(folder, { 'SKILL.md': manifest('v2') });
    const stampDescription = async () => {
      const tools = ((await rpc(server, '/', 'list_tools', { preset: 'trusted' })).result?.tools ?? []) as Array<{
        name: string;
        description: string;
      }>;
      return tools.find((tool) => tool.name === 'stamp')?.description;
    };
    await waitUntil(async () => (await stampDescription())?.includes('v2') === true, 'the library to reload the edited package');
    const resolved = await rpc(server, '/agent/s', 'resolve_approval', {
      approval_id: paused.approvals[0]?.approval_id,
      decision: 'approve',
    });

    expect(resolved.result).toMatchObject({ status: 'stale' });
    expect((await rpc(server, '/agent/s', 'wait_for', { request_id: 'r' })).result).toMatchObject({ content: 'Not stamped.' });
    expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain('stale: the skill package of stamp changed since it was asked');
    await expect(readFile(dir.join('project', 'stamped.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('stops on shutdown_server and removes its token file', async () => {
    const server = await startServer();

    expect((await rpc(server, '/', 'shutdown_server')).result).toMatchObject({ success: true });

    expect(await server.exited).toBe(0);
    await expect(readFile(dir.join('state', 'nexus', `rpc-${server.port}.token`))).rejects.toThrow(/ENOENT/);
  });

  it('gives its agents the tools of the configured MCP servers, warns about one that does not start, and ends them when it stops', async () => {
    // The test's directory as an extra argument tells this test's server processes apart from any other test's.
    await userConfig({
      mcpServers: {
        hostile: { command: process.execPath, args: [hostileScript, dir.path] },
        missing: { command: dir.join('no-such-server') },
      },
    });
    const server = await startServer();
    await waitUntil(() => /nexus: warning: .*"missing".*its tools are left out/.test(server.stderr()), 'the warning about "missing"');
    expect(await processesWith(dir.path)).toHaveLength(1);

    const marker = dir.join('project', 'touched.txt');
    llm.script({ toolCalls: [{ name: 'mcp__hostile__touch', arguments: { marker } }] }, { text: 'Touched it.' });
    await rpc(server, '/', 'create_agent', { agent_id: 'toucher', preset: 'trusted' });
    const sent = await rpc(server, '/agent/toucher', 'send', { content: 'Touch the marker.', confirm: 'allow' });

    expect(sent.result).toMatchObject({ content: 'Touched it.' });
    expect(await readFile(marker, 'utf8')).toBe('touched');
    expect(llm.requests[1]?.body.messages).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'tool', content: 'touched' })]));

    await rpc(server, '/', 'shutdown_server');
    expect(await server.exited).toBe(0);
    expect(await processesWith(dir.path)).toEqual([]);
  });

  it('closes the skill library when it stops: none of its folders is watched any longer', async () => {
    const skills = dir.join('config', 'nexus', 'skills');
    await writeTree(skills, { alpha: { 'SKILL.md': '---\nname: alpha\ndescription: Says one.\ncommand: "echo one"\n---\nSay it.\n' } });
    const folders = await Promise.all([skills, join(skills, 'alpha')].map(async (folder) => (await stat(folder)).ino));
    const watchedFolders = async () => (await watchedInodes()).filter((inode) => folders.includes(inode));
    // In this process, to see its watchers: the library's never keep a process alive, so the built command exits either way.
    const memory = memoryIo({
      cwd: dir.join('project'),
      configHome: dir.join('config'),
      env: { XDG_STATE_HOME: dir.join('state'), HOME: dir.path },
    });
    const serving = runCli(['serve', '--port', '0', '--families', 'fs,skills'], memory.io);
    await waitUntil(
      () => /^URL: /m.test(memory.stdout()),
      () => `nexus serve to listen: ${memory.stderr()}`,
    );
    const url = /^URL: +(\S+)$/m.exec(memory.stdout())?.[1] as string;
    expect(await watchedFolders()).not.toEqual([]);

    expect((await rpc({ url, port: Number(new URL(url).port) }, '/', 'shutdown_server')).result).toMatchObject({ success: true });

    expect(await serving).toBe(0);
    expect(await watchedFolders()).toEqual([]);
  });
});
