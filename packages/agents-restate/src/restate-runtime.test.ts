import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../test/cluster-fixture.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(() => cluster?.close());

/** The stand-in model's answer: the last user message, echoed. */
function echoLastUserMessage(request: { body: { messages?: Array<{ role: string; content: unknown }> } }) {
  const last = (request.body.messages ?? []).filter((message) => message.role === 'user').at(-1);
  return { text: `echo: ${typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)}` };
}

describe('the restate runtime', () => {
  it("shares the agents between workers: 20 created through one are sent to through the other, each one's turns in order", async () => {
    const [first, second] = await cluster.startWorkers(2);
    if (!first || !second) throw new Error('two workers');
    cluster.llm.respondWith(echoLastUserMessage);
    const ids = Array.from({ length: 20 }, (_, index) => `shared-${index}`);

    for (const id of ids) expect(await first.result('/', 'create_agent', { agent_id: id })).toEqual({ agent_id: id, url: `/agent/${id}` });
    const answers = await Promise.all(
      ids.map(async (id) => [
        await second.result(`/agent/${id}`, 'send', { content: `one to ${id}`, request_id: 'r1' }),
        await second.result(`/agent/${id}`, 'send', { content: `two to ${id}`, request_id: 'r2' }),
      ]),
    );

    expect(answers[7]).toEqual([
      { content: 'echo: one to shared-7', request_id: 'r1', halted_at_iteration_limit: false },
      { content: 'echo: two to shared-7', request_id: 'r2', halted_at_iteration_limit: false },
    ]);
    const page = await first.result<{ messages: Array<{ role: string; content: string }> }>('/agent/shared-7', 'get_messages');
    expect(page.messages.map(({ role, content }) => `${role}: ${content}`)).toEqual([
      'user: one to shared-7',
      'assistant: echo: one to shared-7',
      'user: two to shared-7',
      'assistant: echo: two to shared-7',
    ]);
    const listed = await second.result<{ agents: Array<{ agent_id: string; message_count: number }> }>('/', 'list_agents');
    expect(listed.agents.filter((agent) => agent.agent_id.startsWith('shared-')).map((agent) => agent.message_count)).toEqual(
      ids.map(() => 4),
    );
  });
});
