import { setImmediate as nextTurn } from 'node:timers/promises';
import { ServiceContainer } from '@nexus/core';
import type { AuditRecord } from '@nexus/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerFixture, type ServerFixture } from '../test/server-fixture.js';
import { AgentPool, parseAgentSettings, TOKEN_HOLDER } from './index.js';

let fixture: ServerFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A server fixture whose registries send their audit records to `records`. */
function auditedFixture(records: AuditRecord[]): Promise<ServerFixture> {
  return createServerFixture({
    files: { 'notes.md': 'hello' },
    services: () => new ServiceContainer().register('callHooks', { onAudit: (record) => records.push(record) }),
  });
}

describe('audit records name who called', () => {
  it("an agent's tool call is the agent's, with its parent as its ancestry", async () => {
    const records: AuditRecord[] = [];
    fixture = await auditedFixture(records);
    const { pool, llm } = fixture;
    await pool.call('create_agent', { agent_id: 'boss', preset: 'trusted' }, TOKEN_HOLDER);
    await pool.call('create_agent', { agent_id: 'helper', preset: 'sandboxed' }, { kind: 'agent', id: 'boss' });
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }, { text: 'Read.' });

    await pool.call('send', { content: 'read the notes' }, TOKEN_HOLDER, 'helper');

    expect(records.map(({ tool, caller }) => ({ tool, caller }))).toEqual([
      { tool: 'read_file', caller: { agentId: 'helper', ancestry: ['boss'] } },
    ]);
  });

  it("a person's agent's tool call names the person as the token holder, its child's too", async () => {
    const records: AuditRecord[] = [];
    fixture = await auditedFixture(records);
    const { pool, llm } = fixture;
    await pool.call('create_agent', { agent_id: 'mine', preset: 'trusted' }, { kind: 'user', subject: 'alice', admin: false });
    await pool.call('create_agent', { agent_id: 'child', preset: 'sandboxed' }, { kind: 'agent', id: 'mine' });
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }, { text: 'Read.' });

    await pool.call('send', { content: 'read the notes' }, TOKEN_HOLDER, 'child');

    expect(records.map(({ caller }) => caller)).toEqual([{ tokenHolder: 'alice', agentId: 'child', ancestry: ['mine'] }]);
  });

  it("an agent's run_tool through its in-process connection is the agent's", async () => {
    const records: AuditRecord[] = [];
    fixture = await auditedFixture(records);
    const { pool } = fixture;
    await pool.call('create_agent', { agent_id: 'boss', preset: 'trusted' }, TOKEN_HOLDER);
    await pool.call('create_agent', { agent_id: 'helper', preset: 'sandboxed' }, { kind: 'agent', id: 'boss' });

    await pool.call('run_tool', { name: 'read_file', arguments: { path: 'notes.md' } }, { kind: 'agent', id: 'helper' });
    await nextTurn();

    expect(records.map(({ tool, caller }) => ({ tool, caller }))).toEqual([
      { tool: 'read_file', caller: { agentId: 'helper', ancestry: ['boss'] } },
    ]);
  });

  it('an agent restored after a restart names its parent, read from the saved sessions', async () => {
    const records: AuditRecord[] = [];
    fixture = await auditedFixture([]);
    const { pool, llm, dir, families } = fixture;
    await pool.call('create_agent', { agent_id: 'boss', preset: 'trusted' }, TOKEN_HOLDER);
    await pool.call('create_agent', { agent_id: 'helper', preset: 'sandboxed' }, { kind: 'agent', id: 'boss' });
    await pool.close();
    const restarted = new AgentPool({
      settings: parseAgentSettings({
        providers: { local: { type: 'openai-compatible', baseUrl: llm.url } },
        models: { fast: { provider: 'local', id: 'test-model' } },
        defaultModel: 'fast',
      }),
      families,
      cwd: dir.join('work'),
      stateDir: dir.join('state'),
      services: () => new ServiceContainer().register('callHooks', { onAudit: (record) => records.push(record) }),
    });
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }, { text: 'Read.' });

    await restarted.call('send', { content: 'read the notes' }, TOKEN_HOLDER, 'helper');
    await restarted.close();

    expect(records.map(({ caller }) => caller)).toEqual([{ agentId: 'helper', ancestry: ['boss'] }]);
  });
});
