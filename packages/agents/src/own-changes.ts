import type { AgentRuntime } from './agent-runtime.js';
import type { Requester } from './requester-policy.js';

/**
 * Which agents' changes a requester's `watch` streams: every agent's for the token holder and an
 * admin (`undefined`); a person's own only — those listed when the watch starts and those the
 * runtime says are theirs when a change of them first comes (a destroyed agent's last change
 * passes, as it was theirs).
 */
export async function ownAgentsOnly(runtime: AgentRuntime, requester: Requester): Promise<((agentId: string) => boolean) | undefined> {
  if (requester.kind !== 'user' || requester.admin) return undefined;
  const listed = (await runtime.call('list_agents', {}, requester)) as { agents: Array<{ agent_id: string }> };
  const own = new Set(listed.agents.map((agent) => agent.agent_id));
  return (agentId) => {
    if (!own.has(agentId) && runtime.ownerOf?.(agentId) === requester.subject) own.add(agentId);
    return own.has(agentId);
  };
}
