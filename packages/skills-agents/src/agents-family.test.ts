import { mkdir } from 'node:fs/promises';
import type { PresetName } from '@nexus/core';
import type { AgentServerConnection } from '@nexus/core/agent-server';
import { createTestAgent, type TestAgentOptions } from '@nexus/registry/testing';
import { findOpenAiStrictSchemaProblems, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentSkills } from './agents-family.js';
import { startTestRpcServer, type TestRpcServer } from './rpc-server-fixture.js';

const TOKEN = 'nxk_skills-test-token-0123456789';

/** The in-process connection a server registers as `agentServer`: records calls, answers as told. */
function inProcessServer(answer: (method: string, params: Record<string, unknown>, agentId?: string) => unknown = () => ({ ok: true })) {
  const calls: [string, Record<string, unknown>, string | undefined][] = [];
  const connection: AgentServerConnection = {
    port: 8765,
    async call(method, params, agentId) {
      calls.push([method, params, agentId]);
      return answer(method, params, agentId);
    },
  };
  return { connection, calls };
}

let dir: TestDir;
let http: TestRpcServer | undefined;

beforeEach(async () => {
  dir = await testdir({ project: { 'a.txt': 'a' }, elsewhere: {} });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await http?.close();
  http = undefined;
  await dir.cleanup();
});

function agentIn(server: AgentServerConnection | undefined, preset: PresetName = 'trusted', extra: Partial<TestAgentOptions> = {}) {
  return createTestAgent({
    cwd: dir.join('project'),
    preset,
    families: [agentSkills],
    services: { agentId: 'boss', ...(server ? { agentServer: server } : {}) },
    ...extra,
  });
}

/** Calls `tool` with bad arguments: `invalid_input` naming `fragment`, and the server never asked. */
async function expectRefusedBeforeServer(tool: string, args: Record<string, unknown>, fragment: string) {
  const { connection, calls } = inProcessServer();
  const result = await agentIn(connection).call(tool, args);
  expect(result.kind, tool).toBe('invalid_input');
  expect(result.error).toContain(fragment);
  expect(calls).toEqual([]);
  return result;
}

describe('the agents family', () => {
  it('has the six skills, with strict-compatible closed schemas', () => {
    const agent = agentIn(undefined, 'yolo');
    expect(agentSkills.name).toBe('agents');
    expect(agent.registry.names).toEqual(['nexus_create', 'nexus_send', 'nexus_status', 'nexus_cancel', 'nexus_destroy', 'nexus_shutdown']);
    for (const spec of agentSkills.skills) {
      expect(spec.parameters.additionalProperties).toBe(false);
      expect(spec.parameters.properties).toHaveProperty('port');
    }
    const strict = agent.registry.getDefinitions({ format: 'openai', strict: true });
    expect(strict.flatMap((tool) => findOpenAiStrictSchemaProblems(tool.function.parameters))).toEqual([]);
  });

  it('offers only nexus_send at sandboxed, and refuses the rest there', async () => {
    const { connection, calls } = inProcessServer();
    const agent = agentIn(connection, 'sandboxed');
    expect(agent.registry.getDefinitionsForPermissions(agent.services.require('permissions')).map((tool) => tool.function.name)).toEqual([
      'nexus_send',
    ]);
    for (const [tool, args] of [
      ['nexus_create', { agent_id: 'child' }],
      ['nexus_status', { agent_id: 'child' }],
      ['nexus_cancel', { agent_id: 'child', request_id: 1 }],
      ['nexus_destroy', { agent_id: 'child' }],
      ['nexus_shutdown', {}],
    ] as const) {
      expect((await agent.call(tool, args)).kind, tool).toBe('forbidden');
    }
    expect((await agent.call('nexus_send', { agent_id: 'parent', content: 'done' })).success).toBe(true);
    expect(calls).toEqual([['send', { content: 'done' }, 'parent']]);
  });

  it.each([
    '',
    '.',
    '..',
    '...',
    'a/b',
    'a\\b',
    '-lead',
    '_lead',
    'a b',
    '..a',
    'a..b',
    '.a..b',
    `a${'b'.repeat(62)}`,
    'x'.repeat(64),
    'é',
    'a\nb',
  ])('refuses agent_id %j before reaching the server', async (agentId) => {
    const { connection, calls } = inProcessServer();
    const agent = agentIn(connection);
    for (const [tool, args] of [
      ['nexus_create', { agent_id: agentId }],
      ['nexus_send', { agent_id: agentId, content: 'x' }],
      ['nexus_status', { agent_id: agentId }],
      ['nexus_cancel', { agent_id: agentId, request_id: 'r1' }],
      ['nexus_destroy', { agent_id: agentId }],
    ] as const) {
      const result = await agent.call(tool, args);
      expect(result.kind, tool).toBe('invalid_input');
      expect(result.error).toContain('agent_id');
    }
    expect(calls).toEqual([]);
  });

  it.each(['a', '.1', '.temp-agent', 'Worker_2.b-c', `a${'b'.repeat(61)}`, `.a${'b'.repeat(61)}`])(
    'accepts agent_id %j',
    async (agentId) => {
      const { connection, calls } = inProcessServer();
      expect((await agentIn(connection).call('nexus_destroy', { agent_id: agentId })).success).toBe(true);
      expect(calls).toEqual([['destroy_agent', { agent_id: agentId }, undefined]]);
    },
  );

  it('refuses unknown parameters', async () => {
    await expectRefusedBeforeServer('nexus_destroy', { agent_id: 'a', parent_agent_id: 'root' }, 'parent_agent_id');
  });
});

describe('nexus_create', () => {
  it('passes what was given and leaves out blank strings and blank items', async () => {
    const { connection, calls } = inProcessServer(() => ({ agent_id: 'child', url: '/agent/child' }));
    const agent = agentIn(connection);
    const result = await agent.call('nexus_create', {
      agent_id: 'child',
      preset: '',
      cwd: '  ',
      model: '',
      initial_message: ' \n',
      wait_for_initial_response: true,
      allowed_write_paths: ['', ' '],
      disable_tools: ['', 'git'],
    });
    expect(result.success).toBe(true);
    expect(calls).toEqual([['create_agent', { agent_id: 'child', disable_tools: ['git'] }, undefined]]);
    expect(JSON.parse(result.output)).toEqual({ agent_id: 'child', url: '/agent/child' });
    expect(result.data).toEqual({ agent_id: 'child', url: '/agent/child' });

    const everything = {
      agent_id: 'child2',
      preset: 'sandboxed',
      cwd: 'sub',
      allowed_write_paths: ['out'],
      model: 'fast',
      initial_message: 'Read a.txt',
      wait_for_initial_response: true,
    };
    await agent.call('nexus_create', everything);
    // In-process, paths go as given: the server resolves them against the live parent's and checks them.
    expect(calls[1]).toEqual(['create_agent', everything, undefined]);
  });

  it('refuses a model alias over 128 characters and a preset it cannot create', async () => {
    const { connection, calls } = inProcessServer();
    const agent = agentIn(connection);
    const long = await agent.call('nexus_create', { agent_id: 'child', model: 'm'.repeat(129) });
    expect(long.kind).toBe('invalid_input');
    expect(long.error).toContain('model');
    expect((await agent.call('nexus_create', { agent_id: 'child', model: 'm'.repeat(128) })).success).toBe(true);
    const yolo = await agent.call('nexus_create', { agent_id: 'child', preset: 'yolo' });
    expect(yolo.kind).toBe('invalid_input');
    expect(yolo.error).toContain('preset');
    expect(calls).toHaveLength(1);
  });

  it("gives the server's refusal back as the result's error", async () => {
    const { AgentRpcError } = await import('@nexus/core/agent-server');
    const { connection } = inProcessServer(() => {
      throw new AgentRpcError('A trusted agent may create sandboxed agents only.', { rpcCode: -32602 });
    });
    const result = await agentIn(connection).call('nexus_create', { agent_id: 'child', preset: 'trusted' });
    expect(result.error).toBe('A trusted agent may create sandboxed agents only.');
    expect(result.kind).toBe('invalid_input');
  });
});

describe('nexus_send', () => {
  it("answers with the agent's reply as JSON text and data", async () => {
    const reply = { content: 'Done: 3 files.', request_id: 'r-1', halted_at_iteration_limit: false };
    const { connection, calls } = inProcessServer(() => reply);
    const result = await agentIn(connection, 'sandboxed').call('nexus_send', { agent_id: 'worker', content: 'Count the files' });
    expect(result.output).toBe(JSON.stringify(reply, null, 2));
    expect(result.data).toEqual(reply);
    expect(calls).toEqual([['send', { content: 'Count the files' }, 'worker']]);
  });

  it('warns when the agent stopped at its iteration limit', async () => {
    const reply = { content: 'Half way', request_id: 7, halted_at_iteration_limit: true };
    const result = await agentIn(inProcessServer(() => reply).connection).call('nexus_send', { agent_id: 'worker', content: 'Go on' });
    expect(result.success).toBe(true);
    const [json, warning] = result.output.split('\n\n');
    expect(JSON.parse(json as string)).toEqual(reply);
    expect(warning).toMatch(/^Warning: agent "worker" stopped at its tool-iteration limit/);
  });

  it.each(['', ' ', '\n\t '])('refuses blank content %j', async (content) => {
    await expectRefusedBeforeServer('nexus_send', { agent_id: 'worker', content }, 'content');
  });

  it('refuses sending to itself', async () => {
    const result = await expectRefusedBeforeServer('nexus_send', { agent_id: 'boss', content: 'hello me' }, 'itself');
    expect(result.error).toBe('Agent "boss" cannot send to itself: the turn would wait for its own answer.');
  });
});

describe('nexus_status, nexus_cancel, nexus_destroy, nexus_shutdown', () => {
  it('nexus_status answers { tokens: get_tokens, context: get_context }', async () => {
    const tokens = { system: 10, tools: 20, messages: 30, total: 60, budget: 1000, available: 900, remaining: 840 };
    const context = {
      message_count: 2,
      system_prompt: 'Be brief.',
      halted_at_iteration_limit: false,
      last_iteration_count: 1,
      max_tool_iterations: 10,
    };
    const { connection, calls } = inProcessServer((method) => (method === 'get_tokens' ? tokens : context));
    const result = await agentIn(connection).call('nexus_status', { agent_id: 'worker' });
    expect(result.data).toEqual({ tokens, context });
    expect(JSON.parse(result.output)).toEqual({ tokens, context });
    expect(calls.map(([method, params, agentId]) => [method, params, agentId]).sort()).toEqual([
      ['get_context', {}, 'worker'],
      ['get_tokens', {}, 'worker'],
    ]);
  });

  it.each([['req-1'], [42], ['42']])('nexus_cancel passes request_id %j as given', async (requestId) => {
    const { connection, calls } = inProcessServer((_method, params) => ({ cancelled: true, request_id: params.request_id }));
    const result = await agentIn(connection).call('nexus_cancel', { agent_id: 'worker', request_id: requestId });
    expect(result.data).toEqual({ cancelled: true, request_id: requestId });
    expect(calls).toEqual([['cancel', { request_id: requestId }, 'worker']]);
  });

  it.each([[''], ['  '], [true], [false], [null], [1.5], [[1]]])('nexus_cancel refuses request_id %j', async (requestId) => {
    await expectRefusedBeforeServer('nexus_cancel', { agent_id: 'worker', request_id: requestId }, 'request_id');
  });

  it('nexus_destroy and nexus_shutdown call destroy_agent and shutdown_server', async () => {
    const { connection, calls } = inProcessServer((method) =>
      method === 'shutdown_server' ? { success: true, message: 'bye' } : { success: true },
    );
    const agent = agentIn(connection);
    expect((await agent.call('nexus_destroy', { agent_id: 'worker' })).data).toEqual({ success: true });
    expect((await agent.call('nexus_shutdown', {})).data).toEqual({ success: true, message: 'bye' });
    expect(calls).toEqual([
      ['destroy_agent', { agent_id: 'worker' }, undefined],
      ['shutdown_server', {}, undefined],
    ]);
  });
});

describe('which server a skill reaches', () => {
  async function httpServer() {
    vi.stubEnv('NEXUS_API_KEY', TOKEN);
    http = await startTestRpcServer(TOKEN, ({ body }) => ({ result: { method: body.method, params: body.params } }));
    return http;
  }

  it('uses the in-process server when port is absent or its own', async () => {
    const { connection, calls } = inProcessServer();
    const agent = agentIn(connection);
    await agent.call('nexus_destroy', { agent_id: 'a' });
    await agent.call('nexus_destroy', { agent_id: 'b', port: 8765 });
    expect(calls.map(([, params]) => params.agent_id)).toEqual(['a', 'b']);
  });

  it('refuses another port from inside a server below yolo: over HTTP it would be the token holder', async () => {
    const server = await httpServer();
    const { connection, calls } = inProcessServer();
    const result = await agentIn(connection, 'trusted').call('nexus_destroy', { agent_id: 'a', port: server.port });
    expect(result.kind).toBe('forbidden');
    expect(result.error).toContain(`not port ${server.port}`);
    const sandboxed = await agentIn(connection, 'sandboxed').call('nexus_send', { agent_id: 'a', content: 'x', port: server.port });
    expect(sandboxed.kind).toBe('forbidden');
    expect(calls).toEqual([]);
    expect(server.requests).toEqual([]);

    const yolo = await agentIn(connection, 'yolo').call('nexus_destroy', { agent_id: 'a', port: server.port });
    expect(yolo.data).toEqual({ method: 'destroy_agent', params: { agent_id: 'a' } });
  });

  it('goes over HTTP with the discovered token where no server is registered', async () => {
    const server = await httpServer();
    const agent = agentIn(undefined, 'trusted');
    const result = await agent.call('nexus_send', { agent_id: 'boss', content: 'hi', port: server.port });
    // Over HTTP the same id is another server's agent: not "itself".
    expect(result.data).toEqual({ method: 'send', params: { content: 'hi' } });
    expect(server.requests.map(({ path, authorization }) => [path, authorization])).toEqual([['/agent/boss', `Bearer ${TOKEN}`]]);
  });

  it('fails clearly when no server listens', async () => {
    const server = await httpServer();
    const { port } = server;
    await server.close();
    http = undefined;
    const result = await agentIn(undefined).call('nexus_status', { agent_id: 'w', port });
    expect(result.success).toBe(false);
    expect(result.error).toBe(`No agent server on 127.0.0.1:${port} — start one with \`nexus serve --port ${port}\`.`);
  });

  it("over HTTP sends absolute paths checked against the caller's own sandbox", async () => {
    const server = await httpServer();
    await mkdir(dir.join('project', 'sub'));
    const agent = agentIn(undefined, 'trusted', { confirm: false });
    const created = await agent.call('nexus_create', { agent_id: 'w', allowed_write_paths: ['out'], port: server.port });
    expect(created.data).toEqual({
      method: 'create_agent',
      params: { agent_id: 'w', cwd: dir.join('project'), allowed_write_paths: [dir.join('project', 'out')] },
    });
    await agent.call('nexus_create', { agent_id: 'w2', preset: 'trusted', cwd: 'sub', port: server.port });
    expect(server.requests[1]?.body.params).toEqual({ agent_id: 'w2', preset: 'trusted', cwd: dir.join('project', 'sub') });

    // A sandboxed child may work (read) in a directory the caller may read …
    const reader = await agent.call('nexus_create', { agent_id: 'w3', cwd: '../elsewhere', port: server.port });
    expect(reader.success).toBe(true);
    // … but a trusted child writes in its directory, and writing outside the caller's working directory needs approval.
    const writer = await agent.call('nexus_create', { agent_id: 'w4', preset: 'trusted', cwd: '../elsewhere', port: server.port });
    expect(writer.kind).toBe('forbidden');
    const outside = await agent.call('nexus_create', { agent_id: 'w5', allowed_write_paths: ['../elsewhere'], port: server.port });
    expect(outside.kind).toBe('forbidden');
    expect(agent.confirmations.map((request) => request.action)).toEqual([
      `write outside the working directory: ${dir.join('elsewhere')}`,
      `write outside the working directory: ${dir.join('elsewhere')}`,
    ]);
    const missing = await agent.call('nexus_create', { agent_id: 'w6', cwd: 'nope', port: server.port });
    expect(missing.kind).toBe('not_found');
    expect(server.requests).toHaveLength(3);
  });
});
