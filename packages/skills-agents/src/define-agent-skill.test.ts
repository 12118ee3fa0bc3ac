import type { AgentServerConnection } from '@nexus/core/agent-server';
import { createTestAgent } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentIdParameter, defineAgentSkill } from './kit.js';

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({});
});
afterEach(() => dir.cleanup());

/** A kit skill whose `agent_id` is optional: the agent named, else the caller itself. */
const peekSkill = defineAgentSkill<{ agent_id?: string; port?: number }>({
  name: 'peek',
  description: 'Reads the context of an agent, by default your own.',
  readOnly: true,
  parameters: { type: 'object', properties: { agent_id: agentIdParameter('Id of the agent (default: you).') } },
  async run(args, { connection }, { services }) {
    return { result: await connection.call('get_context', {}, args.agent_id ?? services.get('agentId')) };
  },
});

describe('defineAgentSkill', () => {
  it('checks an optional agent_id when it is given, and runs without it', async () => {
    const calls: Array<string | undefined> = [];
    const agentServer: AgentServerConnection = {
      port: 8765,
      async call(_method, _params, agentId) {
        calls.push(agentId);
        return { message_count: 0 };
      },
    };
    const agent = createTestAgent({
      cwd: dir.path,
      preset: 'trusted',
      families: [{ name: 'kit', skills: [peekSkill] }],
      services: { agentId: 'me', agentServer },
    });

    expect(await agent.call('peek', {})).toMatchObject({ success: true, error: '' });
    expect(await agent.call('peek', { agent_id: 'a..b' })).toMatchObject({ kind: 'invalid_input' });
    expect(calls).toEqual(['me']);
  });
});
