import { type LlmStandIn, startLlmStandIn, type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  nexusEnv,
  runNexus,
  type ServingNexus,
  standInModelConfig,
  startNexusServe,
} from './testing/nexus-process-fixture.js';

// `nexus serve` and `nexus agents` as the real processes a user runs, the model being the LLM stand-in.
beforeAll(ensureBuilt, 180_000);

let dir: TestDir;
let llm: LlmStandIn;
let server: ServingNexus;

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'status: draft\n' }, config: {}, state: {} });
  llm = await startLlmStandIn();
  await writeTree(dir.join('config', 'nexus'), {
    'nexus.config.json': JSON.stringify(standInModelConfig(llm.url)),
  });
  server = await startNexusServe([], { cwd: dir.join('project'), env: environment() });
});

afterEach(async () => {
  if (server.child.exitCode === null) await server.stop('SIGKILL');
  await llm.close();
  await dir.cleanup();
});

function environment(): Record<string, string> {
  return nexusEnv(dir.join('config'), { XDG_STATE_HOME: dir.join('state') });
}

/** `nexus agents --port <the server's> <args>`, finding the token in the state directory as a user's shell would. */
function agents(...args: string[]) {
  return runNexus(['agents', '--port', String(server.port), ...args], { cwd: dir.join('project'), env: environment() });
}

describe('nexus agents against nexus serve', () => {
  it('creates an agent, sends it a message, reads its status, destroys it and shuts the server down', async () => {
    expect(await agents('create', 'worker')).toEqual({ code: 0, stdout: 'Created agent "worker" (/agent/worker).\n', stderr: '' });

    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'The notes say draft.' });
    expect(await agents('send', 'worker', 'What do the notes say?')).toEqual({ code: 0, stdout: 'The notes say draft.\n', stderr: '' });

    const status = await agents('status', 'worker', '--json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      tokens: { total: expect.any(Number), budget: expect.any(Number) },
      context: { message_count: 4, halted_at_iteration_limit: false, last_iteration_count: 2 },
    });

    expect(await agents('destroy', 'worker')).toEqual({ code: 0, stdout: 'Destroyed agent "worker".\n', stderr: '' });
    const gone = await agents('status', 'worker');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^nexus: No agent "worker" on the agent server \(HTTP 404 from 127\.0\.0\.1:\d+\)/);

    const shutdown = await agents('shutdown', '--json');
    expect(shutdown.code).toBe(0);
    expect(JSON.parse(shutdown.stdout)).toMatchObject({ success: true });
    expect(await server.exited).toBe(0);
  });

  it('lets an agent command a sandboxed child through its nexus_* tools', async () => {
    expect((await agents('create', 'boss', '--preset', 'trusted')).code).toBe(0);
    llm.script(
      { toolCalls: [{ name: 'nexus_create', arguments: { agent_id: 'child', preset: 'sandboxed', model: '', cwd: ' ' } }] },
      { toolCalls: [{ name: 'nexus_send', arguments: { agent_id: 'child', content: 'What do the notes say?' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, // the child's turn, inside the boss's nexus_send
      { text: 'They say draft.' },
      { toolCalls: [{ name: 'nexus_status', arguments: { agent_id: 'child' } }] },
      { toolCalls: [{ name: 'nexus_destroy', arguments: { agent_id: 'child' } }] },
      { text: 'The child read draft; it is gone.' },
    );
    expect(await agents('send', 'boss', 'Have a helper read the notes.')).toEqual({
      code: 0,
      stdout: 'The child read draft; it is gone.\n',
      stderr: '',
    });
    const toolResults = ((llm.requests.at(-1)?.body.messages ?? []) as Array<{ role: string; content: unknown }>)
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(String(message.content)));
    expect(toolResults).toEqual([
      { agent_id: 'child', url: '/agent/child' },
      expect.objectContaining({ content: 'They say draft.', halted_at_iteration_limit: false }),
      expect.objectContaining({ context: expect.objectContaining({ message_count: 4 }) }),
      { success: true, agent_id: 'child' },
    ]);
    const listed = JSON.parse((await agents('list', '--json')).stdout);
    expect(listed.agents.map((agent: { agent_id: string }) => agent.agent_id)).toEqual(['boss']);
  });
});
