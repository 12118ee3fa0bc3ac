import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorLine, useAction } from '../action.js';
import { BarChart } from '../bar-chart.js';
import type { Rpc } from '../rpc.js';
import type { AgentInfo, Approval, Tokens } from '../types.js';

const STATE_LABEL = { idle: 'idle', running: 'running', awaiting_approval: 'awaiting approval' } as const;

/** `get_tokens` of each agent, asked after the tree is on screen, one at a time, again when its messages change. */
function useTokens(rpc: Rpc, agents: AgentInfo[] | undefined): Record<string, Tokens> {
  const [tokens, setTokens] = useState<Record<string, Tokens>>({});
  const asked = useRef(new Map<string, number>());
  useEffect(() => {
    if (!agents) return;
    let stopped = false;
    const queue = agents.filter((agent) => asked.current.get(agent.agent_id) !== agent.message_count).map((agent) => agent.agent_id);
    for (const agent of agents) asked.current.set(agent.agent_id, agent.message_count);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined && !stopped; id = queue.shift()) {
        const agentId = id;
        const answer = await rpc.call<Tokens>('get_tokens', {}, agentId).catch(() => undefined);
        if (answer && !stopped) setTokens((current) => ({ ...current, [agentId]: answer }));
      }
    };
    // One at a time: the server counts tokens on its event loop, and other calls go in between.
    void worker();
    return () => {
      stopped = true;
    };
  }, [rpc, agents]);
  return tokens;
}

/** The tree of agents (parent → children) with what each may do and is doing; create and destroy. */
export function AgentsPage({
  rpc,
  agents,
  approvals,
  onChanged,
}: {
  rpc: Rpc;
  agents: AgentInfo[] | undefined;
  approvals: Approval[];
  onChanged: () => void;
}) {
  const tokens = useTokens(rpc, agents);
  const destroy = useAction(async (agentId: string) => {
    await rpc.call('destroy_agent', { agent_id: agentId });
    onChanged();
  });
  if (!agents) return <p class="loading">Loading agents…</p>;
  const children = new Map<string | null, AgentInfo[]>();
  for (const agent of agents) {
    const parent =
      agent.parent_agent_id !== null && agents.some((other) => other.agent_id === agent.parent_agent_id) ? agent.parent_agent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), agent]);
  }
  const waiting = new Set(approvals.map((approval) => approval.agent_id));
  const branch = (parent: string | null, level: number) => (
    <ul class={level === 1 ? 'tree' : 'subtree'}>
      {(children.get(parent) ?? []).map((agent) => (
        <li key={agent.agent_id} data-agent={agent.agent_id}>
          <div class="agent-row">
            <a class="agent-id" href={`#/agent/${encodeURIComponent(agent.agent_id)}`}>
              {agent.agent_id}
            </a>
            <span class={`level ${agent.permission_level}`}>{agent.permission_level}</span>
            <span class={`state ${agent.state}`}>
              {waiting.has(agent.agent_id) ? STATE_LABEL.awaiting_approval : STATE_LABEL[agent.state]}
            </span>
            <span class="model">{agent.model}</span>
            <span class="tokens">
              {tokens[agent.agent_id] ? `${tokens[agent.agent_id]?.total} / ${tokens[agent.agent_id]?.budget} tokens` : ''}
            </span>
            <span class="cwd" title="working directory">
              {agent.cwd}
            </span>
            <span class="writes">{agent.write_paths.length > 0 ? `writes: ${agent.write_paths.join(', ')}` : 'read-only'}</span>
            <button type="button" class="danger" onClick={() => destroy.run(agent.agent_id)} aria-label={`Destroy ${agent.agent_id}`}>
              Destroy
            </button>
          </div>
          {children.has(agent.agent_id) && branch(agent.agent_id, level + 1)}
        </li>
      ))}
    </ul>
  );
  return (
    <section aria-labelledby="agents-heading">
      <h1 id="agents-heading">Agents</h1>
      <ErrorLine error={destroy.error} />
      {agents.length === 0 ? <p>No agents yet.</p> : branch(null, 1)}
      <CreateAgent rpc={rpc} agents={agents} onCreated={onChanged} />
      <UsageChart agents={agents} />
    </section>
  );
}

function CreateAgent({ rpc, agents, onCreated }: { rpc: Rpc; agents: AgentInfo[]; onCreated: () => void }) {
  const [agentId, setAgentId] = useState('');
  const [preset, setPreset] = useState('sandboxed');
  const [parent, setParent] = useState('');
  const [writes, setWrites] = useState('');
  const create = useAction(async () => {
    const paths = writes
      .split(',')
      .map((path) => path.trim())
      .filter(Boolean);
    await rpc.call('create_agent', {
      ...(agentId.trim() ? { agent_id: agentId.trim() } : {}),
      preset,
      ...(parent ? { parent_agent_id: parent } : {}),
      ...(paths.length > 0 ? { allowed_write_paths: paths } : {}),
    });
    setAgentId('');
    onCreated();
  });
  return (
    <form
      class="create"
      onSubmit={(event) => {
        event.preventDefault();
        create.run();
      }}
    >
      <h2>Create an agent</h2>
      <label>
        Id <input value={agentId} onInput={(event) => setAgentId(event.currentTarget.value)} placeholder="(temporary)" />
      </label>
      <label>
        Level
        <select value={preset} onChange={(event) => setPreset(event.currentTarget.value)}>
          <option value="sandboxed">sandboxed</option>
          <option value="trusted">trusted</option>
        </select>
      </label>
      <label>
        Parent
        <select value={parent} onChange={(event) => setParent(event.currentTarget.value)}>
          <option value="">(none)</option>
          {agents.map((agent) => (
            <option key={agent.agent_id} value={agent.agent_id}>
              {agent.agent_id}
            </option>
          ))}
        </select>
      </label>
      <label>
        Write paths <input value={writes} onInput={(event) => setWrites(event.currentTarget.value)} placeholder="comma-separated" />
      </label>
      <button type="submit">Create</button>
      <ErrorLine error={create.error} />
    </form>
  );
}

/** The agents that used the most tokens over their turns (at most 20). */
function UsageChart({ agents }: { agents: AgentInfo[] }) {
  const used = agents
    .filter((agent) => agent.usage.total_tokens > 0)
    .sort((a, b) => b.usage.total_tokens - a.usage.total_tokens)
    .slice(0, 20);
  if (used.length === 0) return null;
  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      <BarChart
        title="Tokens per agent"
        bars={used.map((agent) => ({ label: agent.agent_id, input: agent.usage.input_tokens, output: agent.usage.output_tokens }))}
      />
    </section>
  );
}
