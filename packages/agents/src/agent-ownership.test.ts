import { readFile } from 'node:fs/promises';
import { ServiceContainer } from '@nexus/core';
import type { AuditRecord } from '@nexus/registry';
import { type OidcStandIn, startOidcProvider, waitUntil } from '@nexus/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServerFixture, type ServerFixture, watchEvents } from '../test/server-fixture.js';
import { AgentPool, parseAgentSettings, type Requester } from './index.js';

const AUDIENCE = 'https://nexus.example.test';
let idp: OidcStandIn;
let fixture: ServerFixture | undefined;

beforeAll(async () => {
  idp = await startOidcProvider({
    audience: AUDIENCE,
    users: {
      alice: { email: 'alice@example.com' },
      bob: { email: 'bob@example.com' },
      carol: { email: 'carol@ops.test', groups: ['ops'] },
    },
  });
});
afterAll(() => idp.close());
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const USERS = [
  { match: { groups: 'ops' }, admin: true },
  { match: { email: '*@example.com' }, preset: 'sandboxed' as const, block: ['secrets'] },
];
const RULED = [
  { match: { sub: 'alice' }, preset: 'trusted' as const, rules: [{ tool: 'read_file', decision: 'deny', reason: 'not for alice' }] },
];
const serveWithUsers = () => createServerFixture({ serve: { auth: { issuer: idp.issuer, audience: AUDIENCE, users: USERS } } });
const as = async (user: string) => ({ authorization: `Bearer ${await idp.token(user)}` });

describe('agents over nexus serve belong to their creator', () => {
  it("keeps another person from a user's agents; an admin and the static token reach them", async () => {
    fixture = await serveWithUsers();
    const { rpc } = fixture;
    const alice = await as('alice');
    const bob = await as('bob');

    expect((await rpc('/', 'create_agent', { agent_id: 'a1' }, alice)).body).toMatchObject({ result: { agent_id: 'a1' } });

    const ids = async (headers?: Record<string, string>) =>
      ((await rpc('/', 'list_agents', {}, headers)).body.result as { agents: { agent_id: string }[] }).agents.map(
        (agent) => agent.agent_id,
      );
    expect(await ids(alice)).toEqual(['a1']);
    expect(await ids(bob)).toEqual([]);
    for (const [path, method, params] of [
      ['/agent/a1', 'get_context', {}],
      ['/agent/a1', 'get_messages', {}],
      ['/agent/a1', 'send', { content: 'hello' }],
      ['/agent/a1', 'list_approvals', {}],
      ['/agent/a1', 'resolve_approval', { approval_id: 'x', decision: 'approve' }],
      ['/', 'destroy_agent', { agent_id: 'a1' }],
      ['/', 'create_agent', { agent_id: 'b1', parent_agent_id: 'a1' }],
      ['/', 'shutdown_server', {}],
      ['/', 'run_tool', { tool: 'read_file', arguments: { path: 'x' } }],
      ['/', 'list_skill_packages', {}],
    ] as const) {
      expect((await rpc(path, method, params, bob)).body.error?.message, `${method} by bob`).toMatch(/is not yours|is for admins/);
    }
    expect(await ids(await as('carol'))).toEqual(['a1']);
    expect(await ids()).toEqual(['a1']);
    expect((await rpc('/agent/a1', 'get_context', {}, await as('carol'))).status).toBe(200);
  });

  it('keeps a user within their preset ceiling and blocked paths, and keeps the owner in the session header across a restart', async () => {
    fixture = await serveWithUsers();
    const alice = await as('alice');

    const trusted = await fixture.rpc('/', 'create_agent', { agent_id: 'a2', preset: 'trusted' }, alice);
    expect(trusted.body.error?.message).toMatch(/up to "sandboxed"/);
    expect((await fixture.rpc('/', 'create_agent', { agent_id: 'a2' }, alice)).body.result).toMatchObject({ agent_id: 'a2' });
    const listed = (await fixture.rpc('/', 'list_agents', {}, alice)).body.result as { agents: object[] };
    expect(listed.agents).toEqual([expect.objectContaining({ agent_id: 'a2', permission_level: 'sandboxed' })]);

    const header = JSON.parse(await readFile(fixture.dir.join('state', 'sessions', 'a2', 'session.json'), 'utf8'));
    expect(header).toMatchObject({ owner: 'alice', blocked_paths: [fixture.dir.join('work', 'secrets')] });

    const restarted = new AgentPool({
      settings: parseAgentSettings({
        providers: { local: { type: 'openai-compatible', baseUrl: fixture.llm.url, apiKeyEnv: 'UNUSED_KEY' } },
        models: { fast: { provider: 'local', id: 'test-model' } },
        defaultModel: 'fast',
      }),
      families: fixture.families,
      cwd: fixture.dir.join('work'),
      env: { UNUSED_KEY: 'unused' },
      stateDir: fixture.dir.join('state'),
    });
    try {
      const bob: Requester = { kind: 'user', subject: 'bob', admin: false };
      await expect(restarted.call('get_context', {}, bob, 'a2')).rejects.toThrow(/not yours/);
      await expect(restarted.call('get_context', {}, { kind: 'user', subject: 'alice', admin: false }, 'a2')).resolves.toBeDefined();
    } finally {
      await restarted.close();
    }
  });

  it("streams a person's watch with their own agents' changes only", async () => {
    fixture = await serveWithUsers();
    const { rpc, server } = fixture;
    const alice = await as('alice');
    await rpc('/', 'create_agent', { agent_id: 'before' }, alice);
    const stream = await watchEvents(`${server.url}/`, await idp.token('alice'));
    try {
      await rpc('/', 'create_agent', { agent_id: 'theirs' }, await as('bob'));
      await rpc('/', 'create_agent', { agent_id: 'hers' }, alice);
      await rpc('/', 'destroy_agent', { agent_id: 'before' }, alice);
      await waitUntil(() => stream.events.some((event) => event.data?.agent_id === 'before'), 'the destruction to be streamed');

      const seen = stream.events.filter((event) => event.name !== 'ready').map((event) => `${event.name} ${event.data.agent_id}`);
      expect(seen).toEqual(['agent_created hers', 'agent_destroyed before']);
    } finally {
      await stream.close();
    }

    // A resumed stream replays her own agents' changes only, from a cursor of the server's own stream.
    const cursor = stream.events.at(-1)?.id as string;
    await rpc('/', 'create_agent', { agent_id: 'bobs-second' }, await as('bob'));
    await rpc('/', 'create_agent', { agent_id: 'hers-second' }, alice);
    const resumed = await watchEvents(`${server.url}/`, await idp.token('alice'), {}, { after: cursor });
    await waitUntil(() => resumed.events.some((event) => event.data?.agent_id === 'hers-second'), 'her change to be replayed');
    await resumed.close();
    expect(resumed.events.map((event) => `${event.name} ${event.data.agent_id ?? ''}`)).toEqual(['ready ', 'agent_created hers-second']);
  });

  it("applies a person's rules to their agents, and keeps them in the session header", async () => {
    const records: AuditRecord[] = [];
    fixture = await createServerFixture({
      files: { 'notes.md': 'hello' },
      services: () => new ServiceContainer().register('callHooks', { onAudit: (record) => records.push(record) }),
      serve: { auth: { issuer: idp.issuer, audience: AUDIENCE, users: RULED } },
    });
    const alice = await as('alice');
    await fixture.rpc('/', 'create_agent', { agent_id: 'ruled', preset: 'trusted' }, alice);
    fixture.llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }, { text: 'Done.' });
    await fixture.rpc('/agent/ruled', 'send', { content: 'read the notes' }, alice);

    expect(records.map(({ tool, decision, decidedBy }) => ({ tool, decision, decidedBy }))).toEqual([
      { tool: 'read_file', decision: 'deny', decidedBy: 'rule 1' },
    ]);
    const header = JSON.parse(await readFile(fixture.dir.join('state', 'sessions', 'ruled', 'session.json'), 'utf8'));
    expect(header.rules).toEqual(RULED[0]?.rules);
  });
});
