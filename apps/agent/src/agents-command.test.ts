import { chmod, readFile } from 'node:fs/promises';
import { AgentPool, type AgentServer, parseAgentSettings, serveAgents } from '@nexus/agents';
import { fsSkills } from '@nexus/skills-fs';
import { type LlmStandIn, startLlmStandIn, type TestDir, testdir, waitUntil, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo, runNexusIn, writeUserConfig } from './testing/memory-io-fixture.js';
import { standInModelConfig } from './testing/nexus-process-fixture.js';

const KEY_VARIABLE = 'NEXUS_AGENTS_TEST_LLM_KEY';

let dir: TestDir;
let llm: LlmStandIn;
let pool: AgentPool;
let server: AgentServer;

beforeEach(async () => {
  llm = await startLlmStandIn();
  dir = await testdir({ work: { 'notes.txt': 'status: draft\n', src: {} }, state: {}, config: {} });
  pool = new AgentPool({
    settings: parseAgentSettings(standInModelConfig(llm.url, KEY_VARIABLE)),
    families: [fsSkills],
    cwd: dir.join('work'),
    env: { [KEY_VARIABLE]: 'sk-test-key-0123456789' },
    stateDir: dir.join('state', 'nexus'),
  });
  server = await serveAgents(pool, { port: 0, env: {}, stateDir: dir.join('state', 'nexus') });
});

afterEach(async () => {
  await server.close();
  await llm.close();
  await dir.cleanup();
});

/** `nexus agents --port <the server's> …` from the working directory, finding the token file as a user would. */
async function agents(args: string[], env: NodeJS.ProcessEnv = {}) {
  const memory = memoryIo({ cwd: dir.join('work'), configHome: dir.join('config'), env: { XDG_STATE_HOME: dir.join('state'), ...env } });
  const code = await runCli(['agents', '--port', String(server.port), ...args], memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

describe('nexus agents against an agent server', () => {
  it('creates, lists, sends to, reads the status of and destroys an agent', async () => {
    expect(await agents(['create', 'worker', '--cwd', 'src', '--write-path', 'src'])).toEqual({
      code: 0,
      stdout: 'Created agent "worker" (/agent/worker).\n',
      stderr: '',
    });
    const list = await agents(['list']);
    expect(list.stdout).toMatch(/^AGENT\s+LEVEL\s+PARENT\s+MESSAGES\s+MODEL\s+CWD\nworker\s+sandboxed\s+-\s+0\s+\S+\s+.*\/work\/src\n$/);
    const listed = JSON.parse((await agents(['list', '--json'])).stdout);
    expect(listed.agents).toEqual([
      expect.objectContaining({
        agent_id: 'worker',
        permission_level: 'sandboxed',
        cwd: dir.join('work', 'src'),
        write_paths: [dir.join('work', 'src')],
      }),
    ]);

    llm.script({ text: 'Hello from worker.' });
    expect(await agents(['send', 'worker', 'Say', 'hello'])).toEqual({ code: 0, stdout: 'Hello from worker.\n', stderr: '' });
    expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain('Say hello');

    const status = await agents(['status', 'worker']);
    expect(status.stdout).toMatch(/^Agent "worker": 2 messages, \d+ of \d+ tokens \(\d+ left\), last turn 1 of 100 tool iterations\.\n$/);
    const json = JSON.parse((await agents(['status', 'worker', '--json'])).stdout);
    expect(Object.keys(json)).toEqual(['tokens', 'context']);
    expect(json.context).toMatchObject({ message_count: 2, halted_at_iteration_limit: false });
    expect(json.tokens.total).toBe(json.tokens.system + json.tokens.tools + json.tokens.messages);

    expect(await agents(['destroy', 'worker'])).toEqual({ code: 0, stdout: 'Destroyed agent "worker".\n', stderr: '' });
    expect((await agents(['list'])).stdout).toBe('No agents.\n');
  });

  it("queues a create's first message and prints the method's result with --json", async () => {
    llm.script({ text: 'Read it.' });
    const created = await agents(['create', 'reader', '--message', 'Read notes.txt', '--json']);
    expect(created.code).toBe(0);
    const result = JSON.parse(created.stdout);
    expect(result).toEqual({ agent_id: 'reader', url: '/agent/reader', initial_request_id: expect.any(String), initial_status: 'queued' });
    const cancel = await agents(['cancel', 'reader', 'no-such-request']);
    expect(cancel).toEqual({
      code: 1,
      stdout: 'Request no-such-request of agent "reader" is neither running nor queued (not_found_or_completed).\n',
      stderr: '',
    });
  });

  it('reports refusals and failures on one line with exit status 1', async () => {
    const missing = await agents(['status', 'ghost']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^nexus: No agent "ghost" on the agent server \(HTTP 404 from 127\.0\.0\.1:\d+\).*\n$/);

    const refused = await agents(['create', 'x', '--cwd', 'no-such-dir']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`nexus: cwd "${dir.join('work', 'no-such-dir')}" is not an existing directory.\n`);
    await agents(['create', 'x']);
    const taken = await agents(['create', 'x']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe('nexus: Agent "x" already exists.\n');

    const port = server.port;
    await server.close(); // which removes its token file
    const gone = await agents(['list']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe(
      `nexus: No token for an agent server on port ${port}: NEXUS_API_KEY is not set and ${dir.join('state', 'nexus', `rpc-${port}.token`)} does not exist — start one with \`nexus serve --port ${port}\`.\n`,
    );
    const down = await agents(['list'], { NEXUS_API_KEY: 'a-key-of-a-server-that-is-down' });
    expect(down).toEqual({
      code: 1,
      stdout: '',
      stderr: `nexus: No agent server on 127.0.0.1:${port} — start one with \`nexus serve --port ${port}\`.\n`,
    });
  });

  it('shows a paused send, lists approvals, approves and denies them, with one-line errors', async () => {
    const outside = dir.join('state', 'outside.txt');
    expect((await agents(['create', 'w', '--preset', 'trusted'])).code).toBe(0);
    const write = (content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path: outside, content } }] });
    llm.script(write('first'), { text: 'Wrote it.' }, write('second'), { text: 'Left it.' });

    const sent = await agents(['send', 'w', 'Write outside.']);
    expect(sent.code).toBe(0);
    const [approvalId] = /ap-[0-9a-f-]+/.exec(sent.stdout) ?? [];
    expect(sent.stdout).toContain('waits for approval');
    expect(sent.stdout).toContain(`nexus agents approve w ${approvalId}`);
    const listed = await agents(['approvals', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual({
      approvals: [
        expect.objectContaining({
          approval_id: approvalId,
          agent_id: 'w',
          tool: 'write_file',
          arguments: { path: outside, content: 'first' },
        }),
      ],
    });
    const table = await agents(['approvals', 'w']);
    expect(table.stdout).toMatch(/^APPROVAL +AGENT +REQUEST +TOOL +QUESTION\n/);
    expect(table.stdout).toContain(outside);

    const approved = await agents(['approve', 'w', approvalId ?? '']);
    expect(approved).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(new RegExp(`^Approved ${approvalId} of agent "w"; the turn \\S+ goes on\\.\n$`)),
    });
    await waitUntil(async () => (await readFile(outside, 'utf8').catch(() => '')) === 'first', 'the approved write');
    expect((await agents(['approvals'])).stdout).toBe('No approvals waiting.\n');

    const second = await agents(['send', 'w', 'Write again.', '--json']);
    const [pending] = JSON.parse(second.stdout).approvals;
    expect(await agents(['deny', 'w', pending.approval_id, '--note', 'enough'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Denied /),
    });
    const again = await agents(['deny', 'w', pending.approval_id]);
    expect(again).toEqual({ code: 1, stdout: '', stderr: `nexus: Agent "w" has no pending approval "${pending.approval_id}".\n` });
  });

  it('uses NEXUS_API_KEY first, and refuses a token file others may read', async () => {
    const wrongKey = await agents(['list'], { NEXUS_API_KEY: 'not-the-server-token-0123' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/refused the token \(.*HTTP 403/);

    await chmod(server.tokenFile as string, 0o644);
    const open = await agents(['list']);
    expect(open.code).toBe(1);
    expect(open.stderr).toContain(`run \`chmod 600 ${server.tokenFile}\``);
  });

  it.each([
    [[], 'Expected one of list, create, send, status, cancel, approvals, approve, deny, destroy, shutdown'],
    [['approve', 'w'], 'Missing <approval_id>: nexus agents approve <id> <approval_id>.'],
    [['approvals', '../x'], 'Invalid agent id "../x"'],
    [['deny', 'w', 'x', '--remember'], '--remember is an option of `nexus agents approve` only.'],
    [['list', '--note', 'why'], '--note is an option of `nexus agents approve` and `nexus agents deny` only.'],
    [['frobnicate'], 'Expected one of list'],
    [['constructor'], 'Expected one of list'],
    [['send', 'worker'], 'Missing <text>: nexus agents send <id> <text>'],
    [['send', 'worker', '  '], 'The message is empty'],
    [['status'], 'Missing <id>'],
    [['destroy', 'a', 'b'], 'Unexpected argument "b"'],
    [['destroy', '../etc'], 'Invalid agent id "../etc"'],
    [['send', 'w', 'hi', '--model', 'fast'], '--model is an option of `nexus agents create` only'],
    [['list', '--write-path', 'x'], '--write-path is an option of `nexus agents create` only'],
    [['create', 'w', '--preset', 'yolo'], 'not yolo'],
    [['list', '--port', 'http'], 'Expected --port to be an integer from 0 to 65535, got "http"'],
    [['list', '--port', '0'], '--port 0 names no server'],
  ])('refuses bad usage %j with exit status 2', async (args, message) => {
    const memory = memoryIo({ cwd: dir.join('work'), configHome: dir.join('config') });
    const code = await runCli(['agents', ...args], memory.io);
    expect(code).toBe(2);
    expect(memory.stderr()).toContain(message);
    expect(memory.stderr().split('\n')).toHaveLength(2);
  });
});

describe('the agent server port from the config file', () => {
  const withoutPort = (args: string[]) => runNexusIn(dir, ['agents', ...args], 'work');

  it('comes from serve.port in the user config file when --port is not given', async () => {
    await writeUserConfig(dir, { serve: { port: server.port } });
    expect(await withoutPort(['list'])).toEqual({ code: 0, stdout: 'No agents.\n', stderr: '' });
  });

  it('is refused in a working directory’s config file (clients send the key to it)', async () => {
    await writeTree(dir.join('work'), { 'nexus.config.json': JSON.stringify({ serve: { port: server.port } }) });
    const { code, stderr } = await withoutPort(['list']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/`serve` is not allowed here/);
  });
});
