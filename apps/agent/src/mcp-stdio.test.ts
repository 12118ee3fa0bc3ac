import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH, connectToNexusMcp, ensureBuilt, nexusEnv, textOf } from './testing/nexus-process-fixture.js';

let dir: TestDir;
const clients: Client[] = [];

beforeAll(ensureBuilt, 180_000);

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'hello from the project\n' }, config: {} });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await dir.cleanup();
});

/** Starts `nexus mcp <args>` in the project directory and connects the SDK client to it over stdio. */
async function connect(args: string[] = [], client = new Client({ name: 'stdio-test', version: '1.0.0' })): Promise<Client> {
  clients.push(await connectToNexusMcp(client, args, { cwd: dir.join('project'), configHome: dir.join('config') }));
  return client;
}

describe('nexus mcp over stdio, with the SDK client', () => {
  it('introduces itself and lists the sandboxed tools with annotations', async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe('nexus');
    const { tools } = await client.listTools();
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(echo?.inputSchema).toMatchObject({ type: 'object', required: ['message'] });
  });

  it('lists file_info with its title, hints and outputSchema, and its structuredContent passes the client’s check against it', async () => {
    const client = await connect();
    const info = (await client.listTools()).tools.find((tool) => tool.name === 'file_info');
    expect(info).toMatchObject({
      title: 'File info',
      outputSchema: { type: 'object', required: expect.arrayContaining(['path', 'type']) },
    });
    expect(info?.annotations).toEqual({ title: 'File info', readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    // The SDK client validates structuredContent against the listed outputSchema and throws when it does not match.
    const result = await client.callTool({ name: 'file_info', arguments: { path: 'notes.txt' } });
    expect(result.structuredContent).toMatchObject({ path: 'notes.txt', type: 'file', size: 23 });
    expect(textOf(result)).toContain('type: file');
  });

  it('calls a read tool', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { message: 'over stdio' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('over stdio');
  });

  it('reports a failing call as isError with a message naming the parameter', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'sleep', arguments: { seconds: 'soon' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('`seconds`');
  });

  it('stops a running sleep when the client cancels, and keeps serving', async () => {
    const client = await connect();
    const controller = new AbortController();
    const updates: Progress[] = [];
    const call = client.callTool({ name: 'sleep', arguments: { seconds: 600 } }, undefined, {
      signal: controller.signal,
      onprogress: (progress) => {
        updates.push(progress);
        controller.abort('enough');
      },
    });
    await expect(call).rejects.toThrow();
    expect(updates).toHaveLength(1);
    const after = await client.callTool({ name: 'echo', arguments: { message: 'next' } });
    expect(textOf(after)).toBe('next');
  });

  it('sends progress notifications for a call that asks for them', async () => {
    const client = await connect();
    const updates: Progress[] = [];
    const result = await client.callTool({ name: 'sleep', arguments: { seconds: 2.5, label: 'nap' } }, undefined, {
      onprogress: (progress) => updates.push(progress),
    });
    expect(textOf(result)).toBe('Slept 2.5 s (nap).');
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.every((update) => update.total === 2500 && update.message?.includes('nap'))).toBe(true);
    expect(updates[1]!.progress).toBeGreaterThan(updates[0]!.progress);
  });

  it('asks the client to confirm through elicitation, and refuses a client that cannot be asked', async () => {
    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({ tools: { echo: { requiresConfirmation: true } } }),
    });
    const asking = new Client({ name: 'asking', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const questions: string[] = [];
    asking.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    await connect([], asking);
    expect(textOf(await asking.callTool({ name: 'echo', arguments: { message: 'approved' } }))).toBe('approved');
    expect(questions).toEqual([expect.stringContaining('Allow echo to run echo?')]);

    const silent = await connect();
    const refused = await silent.callTool({ name: 'echo', arguments: { message: 'nobody asked' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('needs confirmation');
  });

  it('reads a file through read_file and refuses a sandbox escapeAttempt, whatever roots the client offers', async () => {
    const client = new Client({ name: 'rooted', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///', name: 'everything' }] }));
    await connect([], client);
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
    expect(textOf(read)).toContain('hello from the project');
    expect(read.structuredContent).toMatchObject({ path: 'notes.txt', totalLines: 1 });
    const escapeAttempt = await client.callTool({ name: 'read_file', arguments: { path: '../config/../project/../../etc/passwd' } });
    expect(escapeAttempt.isError).toBe(true);
    expect(textOf(escapeAttempt)).toContain('is not allowed');
  });

  it('under --preset trusted, asks before writing outside the working directory', async () => {
    const asking = new Client({ name: 'asking', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    asking.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
    await connect(['--preset', 'trusted'], asking);
    const approved = await asking.callTool({ name: 'write_file', arguments: { path: dir.join('approved.txt'), content: 'yes' } });
    expect(approved.isError).toBeFalsy();
    expect(await readFile(dir.join('approved.txt'), 'utf8')).toBe('yes');

    const declining = new Client({ name: 'declining', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    declining.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
    await connect(['--preset', 'trusted'], declining);
    const silent = await connect(['--preset', 'trusted']);
    for (const client of [declining, silent]) {
      const refused = await client.callTool({ name: 'write_file', arguments: { path: dir.join('refused.txt'), content: 'no' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('needs confirmation');
    }
    await expect(readFile(dir.join('refused.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('cancels running calls and exits on its own when the client closes stdin', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'mcp'], {
      cwd: dir.join('project'),
      env: nexusEnv(dir.join('config')),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const answers: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => answers.push(chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sleep', arguments: { seconds: 600 } } });
    await expect.poll(() => answers.join(''), { timeout: 30_000 }).toContain('"id":1');
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
