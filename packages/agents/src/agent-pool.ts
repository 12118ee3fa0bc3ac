import { EventEmitter } from 'node:events';
import { type ConfirmFunction, nexusStateDir, ServiceContainer, type SkillFamily, type ToolPermission } from '@nexus/core';
import { type AgentServerConnection, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import type { CallerIdentity } from '@nexus/registry';
import type { AgentEvent, TurnCheckpoint } from './agent.js';
import type { AgentRuntime, PoolSendOptions } from './agent-runtime.js';
import type { AgentSettings } from './agent-settings.js';
import type { PausedTurn } from './agent-turn.js';
import { addUsage } from './agent-usage.js';
import { assembleAgent } from './assemble-agent.js';
import { CallDecisions, withCallDecisions } from './call-decisions.js';
import { MAX_AGENT_DEPTH, type PermissionBase, permissionsOf } from './child-permissions.js';
import { callerOf, createdSpec, grantOf, modelOf, newMember } from './member-creation.js';
import { type PoolChange, turnEventChange } from './pool-events.js';
import { ENDED_TURNS_KEPT, type EndedTurn, isTemporary, type MemberSpec, type PoolMember } from './pool-member.js';
import { closeInterruptedCalls, memberSpecOf, sessionOf } from './pool-sessions.js';
import {
  checkAdmin,
  checkApprover,
  checkDestroy,
  checkOwner,
  checkParentChoice,
  checkSend,
  checkShutdownServer,
  deciderName,
  ownerReached,
  type Requester,
  TOKEN_HOLDER,
} from './requester-policy.js';
import { type MethodName, type MethodParams, methodAt, parseParams } from './rpc-params.js';
import {
  approvalReply,
  checkCompact,
  compactReply,
  contextReply,
  describeMember,
  messagesPage,
  noSuchAgent,
  otherContentRefusal,
  refuse,
  sendReply,
} from './rpc-replies.js';
import { SessionFileError, SessionStore } from './session-store.js';
import { ToolPlayground } from './tool-playground.js';
import { waitForTurn } from './wait-for-turn.js';

/** How an {@link AgentPool} builds agents. */
export interface AgentPoolOptions {
  /** Providers, models, the default model and agent defaults. */
  settings: AgentSettings;
  /** The skill families every agent's registry uses. */
  families: readonly SkillFamily[];
  /** The server's working directory (the token holder's agents' `cwd` resolves against it). */
  cwd: string;
  /** Where API keys are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where sessions are saved (default `nexusStateDir(env)`). */
  stateDir?: string;
  /** Paths no agent may touch. */
  blockedPaths?: readonly string[];
  /** Per-tool settings for every agent. */
  tools?: Record<string, Partial<ToolPermission>>;
  /**
   * Makes the service container each agent starts from (exec settings, GitLab instances, …); the
   * pool adds the agent's working directory, permissions, id and agent server to it.
   */
  services?: () => ServiceContainer;
}

/**
 * The agents of one server, each with its own permissions, conversation, model and working
 * directory, and the methods of specs/agent-server.md §3 with its permission rules (§5) — the one
 * place they are enforced, for HTTP clients and for agents' own `nexus_*` skills alike.
 * Emits `shutdown` when `shutdown_server` is called, and `change` for each change `watch` streams
 * (docs/console.md). The local {@link AgentRuntime}.
 */
export class AgentPool extends EventEmitter<{ shutdown: []; change: [PoolChange] }> implements AgentRuntime {
  readonly #options: AgentPoolOptions;
  readonly #members = new Map<string, PoolMember>();
  readonly #restoring = new Map<string, Promise<PoolMember | undefined>>();
  /** Ids a `create_agent` is making, reserved until it is done. */
  readonly #creating = new Set<string>();
  readonly #sessions: SessionStore;
  readonly #base: PermissionBase;
  readonly #playground: ToolPlayground;
  /** Each agent's calls' decisions, until `watch` reports their results. */
  readonly #decisions = new Map<string, CallDecisions>();
  #temporaryCount = 0;
  #requestCount = 0;
  /** The port agents' `nexus_*` skills see as this server's (set by `serveAgents`). */
  port = 0;

  constructor(options: AgentPoolOptions) {
    super();
    this.#options = options;
    this.#sessions = new SessionStore(options.stateDir ?? nexusStateDir(options.env));
    this.#base = {
      cwd: options.cwd,
      blockedPaths: options.blockedPaths ?? [],
      tools: options.tools ?? {},
    };
    this.#playground = new ToolPlayground({
      families: options.families,
      base: this.#base,
      ...(options.services ? { services: options.services } : {}),
      agentServer: this.#connectionAs(TOKEN_HOLDER),
    });
  }

  /** Ids of the agents in memory. */
  get ids(): string[] {
    return [...this.#members.keys()];
  }

  /** The person who owns an agent in memory (`undefined`: the static token holder's, or not in memory). */
  ownerOf(agentId: string): string | undefined {
    return this.#members.get(agentId)?.grant.owner;
  }

  /**
   * Runs a method: a global one without `agentId`, an agent's on `agentId` (restored from its
   * session when not in memory). Params are validated strictly; refusals and failures reject with
   * an `AgentRpcError`.
   */
  async call(name: string, params: unknown, requester: Requester, agentId?: string, options: PoolSendOptions = {}): Promise<unknown> {
    const method = methodAt(name, agentId);
    switch (method) {
      case 'create_agent':
        return this.#create(parseParams(method, params), requester);
      case 'destroy_agent':
        return this.#destroy(parseParams(method, params).agent_id, requester);
      case 'list_agents': {
        parseParams(method, params);
        const owner = ownerReached(requester, this.#requestingMember(requester));
        const members = [...this.#members.values()].filter((member) => owner === undefined || member.grant.owner === owner);
        const childCount = (member: PoolMember) => members.filter((other) => other.parentId === member.id).length;
        return { agents: members.map((member) => describeMember(member, childCount(member))) };
      }
      case 'shutdown_server':
        parseParams(method, params);
        checkAdmin(requester, 'shut the server down');
        checkShutdownServer(this.#requestingMember(requester));
        setImmediate(() => this.emit('shutdown'));
        return { success: true, message: 'The server is shutting down.' };
      case 'list_tools':
        checkAdmin(requester, 'use the tools playground');
        return this.#playground.list(parseParams(method, params));
      case 'run_tool':
        checkAdmin(requester, 'use the tools playground');
        return this.#playground.run(parseParams(method, params), await this.#callerOf(requester));
      case 'list_approvals':
        if (agentId !== undefined) break;
        return { approvals: await this.#listApprovals(parseParams(method, params).agent_id, requester) };
      default:
        break;
    }
    return this.#callAgent(method, params, requester, agentId as string, options);
  }

  /** Every approval waiting, of agents in memory and of saved ones (read from their sessions), that `requester` may see. */
  async #listApprovals(only: string | undefined, requester: Requester): Promise<object[]> {
    const ids = only === undefined ? new Set([...this.#members.keys(), ...(await this.#sessions.ids())]) : [only];
    const approvals: object[] = [];
    const owner = ownerReached(requester, this.#requestingMember(requester));
    for (const id of ids) {
      const member = this.#members.get(id);
      const header = member ? undefined : await this.#savedHeader(id);
      if (owner !== undefined && (member ? member.grant.owner : header?.owner) !== owner) continue;
      const pending = member ? member.agent.pendingApprovals : header?.turn?.status === 'awaiting_approval' ? header.turn.approvals : [];
      if (pending.length === 0) continue;
      if (requester.kind === 'agent' && !(await this.#ancestry(id)).includes(requester.id)) continue;
      approvals.push(...pending.map((approval) => approvalReply(id, approval)));
    }
    return approvals;
  }

  /** The ids of an agent's parent, its parent's parent, …, from the pool or from their saved sessions. */
  async #ancestry(agentId: string): Promise<string[]> {
    const chain: string[] = [];
    for (let id = await this.#parentOf(agentId); id !== undefined && chain.length <= MAX_AGENT_DEPTH; id = await this.#parentOf(id))
      chain.push(id);
    return chain;
  }

  /** Who a requester is to the audit log: an agent by its id and ancestry, a person by their subject; the token holder names nobody. */
  async #callerOf(requester: Requester): Promise<CallerIdentity | undefined> {
    if (requester.kind === 'user') return { tokenHolder: requester.subject };
    return requester.kind === 'agent' ? { agentId: requester.id, ancestry: await this.#ancestry(requester.id) } : undefined;
  }

  /** `parentId` and the ids above it: the ancestry of an agent whose parent it is. */
  async #lineOf(parentId: string | undefined): Promise<string[]> {
    return parentId === undefined ? [] : [parentId, ...(await this.#ancestry(parentId))];
  }

  async #parentOf(agentId: string): Promise<string | undefined> {
    const member = this.#members.get(agentId);
    return member ? member.parentId : ((await this.#savedHeader(agentId))?.parent_agent_id ?? undefined);
  }

  /** A saved session's header; a broken one counts as none here (it is reported when the agent is used). */
  async #savedHeader(agentId: string) {
    try {
      return await this.#sessions.header(agentId);
    } catch (error) {
      if (SessionFileError.isInstance(error)) return undefined;
      throw error;
    }
  }

  /** An in-process connection for agent `id`'s skills: its calls are that agent's. */
  connectionFor(id: string): AgentServerConnection {
    return this.#connectionAs({ kind: 'agent', id });
  }

  /** An in-process connection whose calls are `requester`'s. */
  #connectionAs(requester: Requester): AgentServerConnection {
    const pool = this;
    return {
      get port() {
        return pool.port;
      },
      call: (method, params, agentId, options) => this.call(method, params, requester, agentId, options),
    };
  }

  /** The agent, restoring it from its session when it is not in memory; `undefined` when there is none. */
  async find(agentId: string): Promise<PoolMember | undefined> {
    const member = this.#members.get(agentId);
    if (member || isTemporary(agentId)) return member;
    let restoring = this.#restoring.get(agentId);
    if (!restoring) {
      restoring = this.#restore(agentId).finally(() => this.#restoring.delete(agentId));
      this.#restoring.set(agentId, restoring);
    }
    return restoring;
  }

  /**
   * Cancels every turn but those paused for approval — they stay in their sessions, to go on after
   * a restart — and closes the agents' registries (the shared families forget them); settles once
   * the cancelled turns have ended and been saved. The pool keeps its saved sessions.
   */
  async close(): Promise<void> {
    const ending: Array<Promise<unknown> | undefined> = [];
    for (const member of this.#members.values()) {
      const state = member.agent.turnState;
      const paused = state?.status === 'awaiting_approval' ? state.requestId : undefined;
      for (const [requestId, turn] of member.turns) {
        if (requestId === paused) continue;
        turn.abort.abort();
        ending.push(member.agent.turn(requestId)?.end());
      }
      member.agent.registry.close();
    }
    await Promise.allSettled([...ending, this.#playground.close()]);
  }

  async #callAgent(method: MethodName, params: unknown, requester: Requester, agentId: string, options: PoolSendOptions): Promise<unknown> {
    const member = await this.find(agentId);
    if (!member) throw noSuchAgent(agentId);
    checkOwner(requester, this.#requestingMember(requester), { id: member.id, owner: member.grant.owner });
    member.lastActionAt = new Date().toISOString();
    switch (method) {
      case 'send':
        return this.#send(member, parseParams(method, params), requester, options);
      case 'cancel': {
        const { request_id } = parseParams(method, params);
        const turn = member.turns.get(String(request_id));
        // A turn cancelled already is over, though it stays listed until the turn ahead of it ends.
        if (!turn || turn.abort.signal.aborted) return { cancelled: false, request_id, reason: 'not_found_or_completed' };
        turn.abort.abort();
        return { cancelled: true, request_id };
      }
      case 'list_approvals':
        if (parseParams(method, params).agent_id !== undefined)
          throw refuse('Invalid params for list_approvals: agent_id is for POST / (an agent lists its own approvals).');
        checkApprover(requester, member.id, await this.#ancestry(member.id));
        return { approvals: member.agent.pendingApprovals.map((approval) => approvalReply(member.id, approval)) };
      case 'resolve_approval':
        return this.#resolveApproval(member, parseParams(method, params), requester);
      case 'wait_for': {
        const { request_id, timeout_ms } = parseParams(method, params);
        checkSend(this.#requestingMember(requester), member);
        return waitForTurn(member, request_id, timeout_ms);
      }
      case 'get_tokens':
        parseParams(method, params);
        return member.agent.tokens();
      case 'get_context':
        parseParams(method, params);
        return contextReply(member);
      case 'get_messages':
        return messagesPage(member, parseParams(method, params));
      case 'compact': {
        const { force = true } = parseParams(method, params);
        const paused = member.agent.turnState;
        checkCompact(member.id, paused?.status === 'awaiting_approval' ? paused.requestId : undefined);
        const result = await member.agent.compact({ force });
        await this.#save(member);
        return compactReply(result);
      }
      case 'shutdown':
        parseParams(method, params);
        await this.#destroy(agentId, requester);
        return { success: true };
      default:
        throw refuse(`Method not found: ${method}.`, RPC_ERROR_CODES.methodNotFound);
    }
  }

  /** The agent making the call; `undefined` for the token holder and a person. */
  #requestingMember(requester: Requester): PoolMember | undefined {
    if (requester.kind !== 'agent') return undefined;
    const member = this.#members.get(requester.id);
    if (!member) throw refuse(`The requesting agent "${requester.id}" no longer exists.`);
    return member;
  }

  async #create(params: MethodParams<'create_agent'>, requester: Requester): Promise<unknown> {
    const requesting = this.#requestingMember(requester);
    const id = params.agent_id ?? `.${++this.#temporaryCount}`;
    // Reserved before the first await: a second creation of the id at the same moment is a duplicate too.
    if (this.#members.has(id) || this.#creating.has(id)) throw refuse(`Agent "${id}" already exists.`);
    this.#creating.add(id);
    try {
      return await this.#createReserved(id, params, requester, requesting);
    } finally {
      this.#creating.delete(id);
    }
  }

  async #createReserved(
    id: string,
    params: MethodParams<'create_agent'>,
    requester: Requester,
    requesting: PoolMember | undefined,
  ): Promise<unknown> {
    let parent = requesting;
    if (params.parent_agent_id !== undefined) {
      checkParentChoice(requesting, params.parent_agent_id);
      parent = await this.find(params.parent_agent_id);
      if (!parent) throw refuse(`No parent agent "${params.parent_agent_id}".`);
      checkOwner(requester, requesting, { id: parent.id, owner: parent.grant.owner });
    }
    if (await this.find(id)) throw refuse(`Agent "${id}" already exists.`);
    const grant = await grantOf(params, parent, this.#base, requester);
    const member = this.#build(createdSpec(id, new Date().toISOString(), params, parent, grant), await this.#lineOf(parent?.id));
    await this.#save(member);
    const result: Record<string, unknown> = { agent_id: id, url: `/agent/${id}` };
    if (params.initial_message !== undefined) {
      const requestId = this.#newRequestId();
      const turn = this.#send(member, { content: params.initial_message, request_id: requestId }, requester, {});
      result.initial_request_id = requestId;
      if (params.wait_for_initial_response) result.response = await turn;
      else {
        result.initial_status = 'queued';
        // Its outcome is read with get_messages; a failure is the provider's, already in the session's state.
        turn.catch(() => {});
      }
    }
    return result;
  }

  /** Assembles the agent a spec describes, with its own services, and adds it to the pool; `ancestry` names its calls' caller. */
  #build(spec: MemberSpec, ancestry: readonly string[]): PoolMember {
    const { settings, env, families, services = () => new ServiceContainer() } = this.#options;
    const model = modelOf(settings, spec.modelAlias, env);
    const permissions = permissionsOf(spec.grant, this.#base);
    const agent = assembleAgent({
      settings,
      model,
      families,
      permissions,
      services: withCallDecisions(services(), this.#newDecisions(spec.id))
        .register('agentId', spec.id)
        .register('agentServer', this.connectionFor(spec.id)),
      ...(spec.systemPrompt === undefined ? {} : { systemPrompt: spec.systemPrompt }),
      messages: spec.messages,
      rememberedApprovals: spec.rememberedApprovals,
      onCheckpoint: (checkpoint) => this.#checkpoint(member, checkpoint),
      caller: callerOf(spec, ancestry),
    });
    const parent = spec.parentId === undefined ? undefined : this.#members.get(spec.parentId);
    const member = newMember(spec, { depth: parent ? parent.depth + 1 : 1, permissions, modelAlias: model.alias, agent });
    this.#members.set(spec.id, member);
    this.emit('change', { name: 'agent_created', data: { agent_id: spec.id, parent_agent_id: spec.parentId ?? null } });
    return member;
  }

  #newRequestId(): string {
    return `req-${Date.now().toString(36)}-${++this.#requestCount}`;
  }

  /**
   * Sends a turn; answers at its end or when it pauses for approval. A `send` naming a turn that
   * has not ended, or one of the last that did, with the same content, is a retry: it answers that
   * turn instead of running it again.
   */
  async #send(member: PoolMember, params: MethodParams<'send'>, requester: Requester, options: PoolSendOptions): Promise<unknown> {
    checkSend(this.#requestingMember(requester), member);
    const requestId = params.request_id ?? this.#newRequestId();
    const key = String(requestId);
    const earlier = member.turns.get(key) ?? member.ended.get(key);
    if (earlier) {
      if (earlier.content !== params.content) throw otherContentRefusal(requestId);
      const open = member.agent.turn(key);
      return open
        ? sendReply(member.id, await open.next(), requestId)
        : (member.ended.get(key)?.reply ?? { cancelled: true, request_id: requestId });
    }
    const abort = new AbortController();
    const stop = () => abort.abort();
    options.signal?.addEventListener('abort', stop);
    member.turns.set(key, { abort, content: params.content });
    this.emit('change', { name: 'turn_started', data: { agent_id: member.id, request_id: key, content: params.content } });
    try {
      const result = await member.agent.send(params.content, {
        signal: abort.signal,
        requestId: key,
        onEvent: this.#eventsOf(member.id, key, options.onEvent),
        ...confirmationOf(params.confirm),
      });
      return sendReply(member.id, result, requestId);
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  }

  #newDecisions(agentId: string): CallDecisions {
    const decisions = new CallDecisions();
    this.#decisions.set(agentId, decisions);
    return decisions;
  }

  /** A turn's `onEvent`: `listener`'s, and the pool's `change` events for `watch`. */
  #eventsOf(agentId: string, requestId: string, listener?: (event: AgentEvent) => void): (event: AgentEvent) => void {
    return (event) => {
      listener?.(event);
      const decisions = this.#decisions.get(agentId);
      // The records of the calls that ended reach the decisions now, not on the event loop's next turn.
      if (event.type === 'tool-result' || event.type === 'approval-required')
        this.#members.get(agentId)?.agent.registry.deliverAuditRecords();
      // A paused call has no result yet: its record (asked, not given) is not its final decision.
      if (event.type === 'approval-required') decisions?.take(event.approval.toolCallId);
      const decision = event.type === 'tool-result' ? decisions?.take(event.id) : undefined;
      const change = turnEventChange(agentId, requestId, event, decision);
      if (change) this.emit('change', change);
    };
  }

  /** Keeps an agent's session up to date with its turns (`onCheckpoint`), and notes each turn that ends for `wait_for`. */
  async #checkpoint(member: PoolMember, checkpoint: TurnCheckpoint): Promise<void> {
    if (checkpoint.type === 'ended') {
      const open = member.turns.get(checkpoint.requestId);
      member.turns.delete(checkpoint.requestId);
      const { result } = checkpoint;
      if (result) {
        member.usage = addUsage(member.usage, result.usage);
        noteEnded(member, checkpoint.requestId, { content: open?.content, reply: sendReply(member.id, result, checkpoint.requestId) });
      }
      const reply = member.ended.get(checkpoint.requestId)?.reply ?? { request_id: checkpoint.requestId, status: 'failed' };
      this.emit('change', { name: 'turn_ended', data: { agent_id: member.id, request_id: checkpoint.requestId, reply } });
      member.lastActionAt = new Date().toISOString();
    }
    await this.#save(member);
  }

  async #resolveApproval(member: PoolMember, params: MethodParams<'resolve_approval'>, requester: Requester): Promise<unknown> {
    checkApprover(requester, member.id, await this.#ancestry(member.id));
    if (!member.agent.pendingApprovals.some((approval) => approval.approvalId === params.approval_id))
      throw refuse(`Agent "${member.id}" has no pending approval "${params.approval_id}".`);
    const { status, requestId } = member.agent.resolveApproval(params.approval_id, {
      decision: params.decision,
      by: deciderName(requester),
      ...(params.remember === undefined ? {} : { remember: params.remember }),
      ...(params.note === undefined ? {} : { note: params.note }),
    });
    this.emit('change', {
      name: 'approval_resolved',
      data: { agent_id: member.id, request_id: requestId, approval_id: params.approval_id, status },
    });
    return { resolved: true, request_id: requestId, status };
  }

  async #destroy(agentId: string, requester: Requester): Promise<unknown> {
    const member = await this.find(agentId);
    if (!member) throw noSuchAgent(agentId);
    checkOwner(requester, this.#requestingMember(requester), { id: member.id, owner: member.grant.owner });
    checkDestroy(requester, member);
    for (const turn of member.turns.values()) turn.abort.abort();
    this.#members.delete(agentId);
    this.#decisions.delete(agentId);
    member.agent.registry.close();
    await this.#sessions.delete(agentId);
    this.emit('change', { name: 'agent_destroyed', data: { agent_id: agentId } });
    return { success: true, agent_id: agentId };
  }

  async #save(member: PoolMember): Promise<void> {
    if (isTemporary(member.id) || !this.#members.has(member.id)) return;
    await this.#sessions.save(sessionOf(member));
  }

  async #restore(agentId: string): Promise<PoolMember | undefined> {
    const restored = await this.#sessions.load(agentId);
    if (!restored || this.#members.has(agentId)) return this.#members.get(agentId);
    const { session } = restored;
    const interrupted = session.turn?.status === 'running' ? session.turn.requestId : undefined;
    const spec = memberSpecOf(interrupted ? { ...session, messages: closeInterruptedCalls(session.messages) } : session);
    const member = this.#build(spec, await this.#lineOf(spec.parentId));
    member.restoreWarnings = restored.warnings;
    // specs/agent-server.md §9: reported once, on the server's stderr and in get_context.
    for (const warning of restored.warnings) process.stderr.write(`nexus: ${warning}\n`);
    if (interrupted) {
      // §8: a turn the server died in (not paused) is over; wait_for says so.
      noteEnded(member, interrupted, { content: undefined, reply: { status: 'interrupted', request_id: interrupted } });
      await this.#save(member);
    }
    if (session.turn?.status === 'awaiting_approval') this.#resumePaused(member, session.turn);
    return member;
  }

  /** Takes up a turn its session left paused for approval: it waits again, and goes on once decided. */
  #resumePaused(member: PoolMember, paused: PausedTurn): void {
    const abort = new AbortController();
    member.turns.set(paused.requestId, { abort, content: undefined });
    // Its end is noted by the checkpoint; a provider failure after the pause is the turn's own, seen with wait_for.
    member.agent.resume(paused, { signal: abort.signal, onEvent: this.#eventsOf(member.id, paused.requestId) }).catch(() => {});
  }
}

/** The turn's way to ask for confirmation, from `send`'s `confirm`: absent, it pauses for approval. */
function confirmationOf(confirm: MethodParams<'send'>['confirm']): { confirm?: ConfirmFunction } {
  if (confirm === 'allow') return { confirm: () => true };
  if (confirm === 'deny') return { confirm: () => false };
  return {};
}

/** Notes a turn that ended, forgetting the oldest past {@link ENDED_TURNS_KEPT}. */
function noteEnded(member: PoolMember, requestId: string, ended: EndedTurn): void {
  member.ended.delete(requestId);
  member.ended.set(requestId, ended);
  for (const oldest of member.ended.keys()) {
    if (member.ended.size <= ENDED_TURNS_KEPT) break;
    member.ended.delete(oldest);
  }
}
