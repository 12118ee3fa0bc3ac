import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ADMIN_PAGES } from './admin-pages.js';
import { applyTurnEvent, doubtedTurns, doubtTurns, type LiveTurns, settleTurn } from './live-turns.js';
import { AgentPage } from './pages/agent-page.js';
import { AgentsPage } from './pages/agents-page.js';
import { ApprovalsPage } from './pages/approvals-page.js';
import { SkillsPage } from './pages/skills-page.js';
import { ToolsPage } from './pages/tools-page.js';
import { type Rpc, RpcError, type ServerEvent } from './rpc.js';
import type { AgentInfo, Approval } from './types.js';

/** The page named by the address's hash: `#/agents`, `#/agent/<id>`, `#/approvals`, `#/tools`, `#/skills`. */
function useRoute(): string[] {
  const read = () => (location.hash.replace(/^#\/?/, '') || 'agents').split('/').map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** Calls `load` once, soon, however many times it is asked in a burst of events. */
function useCoalesced(load: () => void): () => void {
  const pending = useRef(false);
  return useCallback(() => {
    if (pending.current) return;
    pending.current = true;
    setTimeout(() => {
      pending.current = false;
      load();
    }, 20);
  }, [load]);
}

const AGENT_CHANGES = new Set(['agent_created', 'agent_destroyed', 'turn_started', 'turn_ended', 'approval_required', 'approval_resolved']);
const APPROVAL_CHANGES = new Set(['approval_required', 'approval_resolved', 'turn_ended', 'agent_destroyed']);
/** JSON-RPC's code for invalid params: `wait_for`'s answer for a turn its agent does not know. */
const INVALID_PARAMS = -32602;

/**
 * The console once it has the token: navigation, live state from `watch`, and the pages. The
 * admins' pages are offered once `admin` is known to be true; when it is false their addresses
 * show the agents.
 */
export function Console({
  rpc,
  firstAgents,
  admin,
  onRefused,
}: {
  rpc: Rpc;
  firstAgents: AgentInfo[] | undefined;
  admin: boolean | undefined;
  onRefused: () => void;
}) {
  const route = useRoute();
  const [agents, setAgents] = useState<AgentInfo[] | undefined>(firstAgents);
  const [approvals, setApprovals] = useState<Approval[]>([]);
  const [turns, setTurns] = useState<LiveTurns>({});
  // The turns as last changed, for what is done after a change (the state is read when rendering).
  const latestTurns = useRef<LiveTurns>({});
  const changeTurns = useCallback((change: (turns: LiveTurns) => LiveTurns) => {
    latestTurns.current = change(latestTurns.current);
    setTurns(latestTurns.current);
  }, []);
  const [connection, setConnection] = useState('connecting');

  const loadAgents = useCallback(() => {
    rpc.call<{ agents: AgentInfo[] }>('list_agents').then(
      ({ agents }) => setAgents(agents),
      () => {},
    );
  }, [rpc]);
  const loadApprovals = useCallback(() => {
    rpc.call<{ approvals: Approval[] }>('list_approvals').then(
      ({ approvals }) => setApprovals(approvals),
      () => {},
    );
  }, [rpc]);
  const refreshAgents = useCoalesced(loadAgents);
  const refreshApprovals = useCoalesced(loadApprovals);

  useEffect(() => {
    const stop = new AbortController();
    // A stream that ends or fails is opened again, a little later each time (at most every 10 s);
    // a refused token (the server restarted with a new one) sends the person back to the token form.
    let delay = 500;
    const onEvent = (event: ServerEvent) => {
      if (event.name === 'ready') {
        delay = 500;
        setConnection('live');
        loadAgents();
        // Changes were missed and not replayed: each live turn not ended may have ended meanwhile.
        if (event.data.resumed !== true) {
          changeTurns(doubtTurns);
          for (const [agentId, requestId] of doubtedTurns(latestTurns.current)) askAbout(agentId, requestId);
        }
        loadApprovals();
        return;
      }
      changeTurns((current) => applyTurnEvent(current, event, performance.now()));
      if (AGENT_CHANGES.has(event.name)) refreshAgents();
      if (APPROVAL_CHANGES.has(event.name)) refreshApprovals();
    };
    /** Settles a doubted turn by what `wait_for`, not waiting, tells of it now. */
    const askAbout = (agentId: string, requestId: string) => {
      rpc.call<Record<string, unknown>>('wait_for', { request_id: requestId, timeout_ms: 0 }, agentId).then(
        (reply) => changeTurns((current) => settleTurn(current, agentId, requestId, reply)),
        (failure: unknown) => {
          // The agent is gone (404), or has ended the turn so long ago that it no longer knows it (-32602).
          const forgotten = failure instanceof RpcError && (failure.status === 404 || failure.code === INVALID_PARAMS);
          if (forgotten) changeTurns((current) => settleTurn(current, agentId, requestId, undefined));
        },
      );
    };
    const connect = (): void => {
      rpc
        .watch(onEvent, stop.signal)
        .then(
          () => undefined,
          (failure: unknown) => failure,
        )
        .then((failure) => {
          if (stop.signal.aborted) return;
          if (failure instanceof RpcError && (failure.status === 401 || failure.status === 403)) return onRefused();
          setConnection('reconnecting');
          setTimeout(connect, delay);
          delay = Math.min(delay * 2, 10_000);
        });
    };
    connect();
    return () => stop.abort();
  }, [rpc, onRefused, loadAgents, loadApprovals, refreshAgents, refreshApprovals, changeTurns]);

  const [asked = 'agents', id] = route;
  const page = admin !== false || !ADMIN_PAGES.has(asked) ? asked : 'agents';
  useEffect(() => {
    if (page !== asked) location.replace('#/agents');
  }, [page, asked]);
  const link = (target: string, label: string, extra?: string) => (
    <a href={`#/${target}`} aria-current={page === target ? 'page' : undefined}>
      {label}
      {extra}
    </a>
  );
  return (
    <>
      <header>
        <span class="brand">Nexus</span>
        <nav aria-label="Pages">
          {link('agents', 'Agents')}
          {link('approvals', 'Approvals', approvals.length > 0 ? ` (${approvals.length})` : '')}
          {admin === true && link('tools', 'Tools')}
          {admin === true && link('skills', 'Skills')}
        </nav>
        <span class={`connection ${connection}`} role="status">
          {connection === 'live' ? 'live' : connection}
        </span>
      </header>
      <main>
        {admin === undefined && ADMIN_PAGES.has(page) ? (
          <p class="loading">Loading…</p>
        ) : page === 'agent' && id !== undefined ? (
          <AgentPage rpc={rpc} agentId={id} agent={agents?.find((agent) => agent.agent_id === id)} turns={turns[id] ?? []} />
        ) : page === 'approvals' ? (
          <ApprovalsPage rpc={rpc} approvals={approvals} onResolved={loadApprovals} />
        ) : page === 'tools' ? (
          <ToolsPage rpc={rpc} />
        ) : page === 'skills' ? (
          <SkillsPage rpc={rpc} />
        ) : (
          <AgentsPage rpc={rpc} agents={agents} approvals={approvals} onChanged={loadAgents} />
        )}
      </main>
    </>
  );
}
