import { EventEmitter } from 'node:events';
import { type AgentPermissions, ConfigError, nexusStateDir, ServiceContainer, type SkillFamily, type ToolPermission } from '@nexus/core';
import { AgentRpcError, type AgentServerConnection, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import { SkillRegistry } from '@nexus/registry';
import type { ModelMessage } from 'ai';
import { Agent, type AgentEvent, addUsage, emptyUsage, type TurnResult, type TurnUsage } from './agent.js';
import type { AgentSettings } from './agent-settings.js';
import { type AgentGrant, decideGrant, type PermissionBase, permissionsOf } from './child-permissions.js';
import { resolveModel } from './resolve-model.js';
import { GLOBAL_METHODS, isMethodName, type MethodName, type MethodParams, parseParams } from './rpc-params.js';
import { type Session, SessionStore } from './session-store.js';

/** Who makes a call: the token holder (an HTTP client), or an agent of the pool (its skills, in-process). */
export type Requester = { readonly kind: 'token-holder' } | { readonly kind: 'agent'; readonly id: string };

/** The token holder: every HTTP request is theirs (an `X-Nexus-Agent` header is never believed). */
export const TOKEN_HOLDER: Requester = { kind: 'token-holder' };

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
  /** Registers further services in each agent's container (exec settings, GitLab instances, …). */
  configureServices?: (services: ServiceContainer) => void;
}

/** Options of one turn through the pool. */
export interface PoolSendOptions {
  /** Streams the turn's events (a streaming `send`). */
  onEvent?: (event: AgentEvent) => void;
  /** Cancels the turn (a streaming client that went away). */
  signal?: AbortSignal;
}

interface Member {
  readonly id: string;
  readonly createdAt: string;
  readonly parentId: string | undefined;
  readonly depth: number;
  readonly grant: AgentGrant;
  readonly permissions: AgentPermissions;
  readonly modelAlias: string;
  readonly agent: Agent;
  readonly turns: Map<string, AbortController>;
  lastActionAt: string;
  usage: TurnUsage;
}

const DEFAULT_SYSTEM_PROMPT =
  'You are a Nexus agent working in {cwd} with the "{level}" permission level. Use your tools to look things up and act; ' +
  'when a tool refuses or fails, read why and adapt. Answer concisely.';

function refuse(message: string, rpcCode: number = RPC_ERROR_CODES.invalidParams): AgentRpcError {
  return new AgentRpcError(message, { rpcCode });
}

/** No agent of that id, in memory or saved (an HTTP server answers 404). */
function noSuchAgent(agentId: string): AgentRpcError {
  return new AgentRpcError(`No agent "${agentId}".`, { rpcCode: RPC_ERROR_CODES.serverError, kind: 'not_found' });
}

function isTemporary(id: string): boolean {
  return id.startsWith('.');
}

/**
 * The agents of one server, each with its own permissions, conversation, model and working
 * directory, and the methods of specs/agent-server.md §3 with its permission rules (§5) — the one
 * place they are enforced, for HTTP clients and for agents' own `nexus_*` skills alike.
 * Emits `shutdown` when `shutdown_server` is called.
 */
export class AgentPool extends EventEmitter<{ shutdown: [] }> {
  readonly #options: AgentPoolOptions;
  readonly #members = new Map<string, Member>();
  readonly #restoring = new Map<string, Promise<Member | undefined>>();
  /** Ids a `create_agent` is making, reserved until it is done. */
  readonly #creating = new Set<string>();
  readonly #sessions: SessionStore;
  readonly #base: PermissionBase;
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
  }

  /** Ids of the agents in memory. */
  get ids(): string[] {
    return [...this.#members.keys()];
  }

  /**
   * Runs a method: a global one without `agentId`, an agent's on `agentId` (restored from its
   * session when not in memory). Params are validated strictly; refusals and failures reject with
   * an `AgentRpcError`.
   */
  async call(method: string, params: unknown, requester: Requester, agentId?: string, options: PoolSendOptions = {}): Promise<unknown> {
    if (!isMethodName(method)) throw refuse(`Method not found: ${method}.`, RPC_ERROR_CODES.methodNotFound);
    if (GLOBAL_METHODS.has(method) !== (agentId === undefined)) {
      const where = agentId === undefined ? 'POST /agent/<id>' : 'POST / (or /rpc)';
      throw refuse(`Method not found: ${method} is called on ${where}.`, RPC_ERROR_CODES.methodNotFound);
    }
    switch (method) {
      case 'create_agent':
        return this.#create(parseParams(method, params), requester);
      case 'destroy_agent':
        return this.#destroy(parseParams(method, params).agent_id, requester);
      case 'list_agents':
        parseParams(method, params);
        return { agents: [...this.#members.values()].map((member) => this.#describe(member)) };
      case 'shutdown_server':
        parseParams(method, params);
        this.#refuseSandboxed(requester, 'shut the server down');
        setImmediate(() => this.emit('shutdown'));
        return { success: true, message: 'The server is shutting down.' };
      default:
        return this.#callAgent(method, params, requester, agentId as string, options);
    }
  }

  /** An in-process connection for agent `id`'s skills: its calls are that agent's. */
  connectionFor(id: string): AgentServerConnection {
    const requester: Requester = { kind: 'agent', id };
    const pool = this;
    return {
      get port() {
        return pool.port;
      },
      call: (method, params, agentId, options) => this.call(method, params, requester, agentId, options),
    };
  }

  /** The agent, restoring it from its session when it is not in memory; `undefined` when there is none. */
  async find(agentId: string): Promise<Member | undefined> {
    const member = this.#members.get(agentId);
    if (member || isTemporary(agentId)) return member;
    let restoring = this.#restoring.get(agentId);
    if (!restoring) {
      restoring = this.#restore(agentId).finally(() => this.#restoring.delete(agentId));
      this.#restoring.set(agentId, restoring);
    }
    return restoring;
  }

  /** Cancels every turn and closes the agents' registries (the shared families forget them); the pool keeps its saved sessions. */
  close(): void {
    for (const member of this.#members.values()) {
      for (const turn of member.turns.values()) turn.abort();
      member.agent.registry.close();
    }
  }

  async #callAgent(method: MethodName, params: unknown, requester: Requester, agentId: string, options: PoolSendOptions): Promise<unknown> {
    const member = await this.find(agentId);
    if (!member) throw noSuchAgent(agentId);
    member.lastActionAt = new Date().toISOString();
    switch (method) {
      case 'send':
        return this.#send(member, parseParams(method, params), requester, options);
      case 'cancel': {
        const { request_id } = parseParams(method, params);
        const turn = member.turns.get(String(request_id));
        if (!turn) return { cancelled: false, request_id, reason: 'not_found_or_completed' };
        turn.abort();
        return { cancelled: true, request_id };
      }
      case 'get_tokens':
        parseParams(method, params);
        return member.agent.tokens();
      case 'get_context':
        parseParams(method, params);
        return member.agent.context();
      case 'get_messages':
        return this.#messages(member, parseParams(method, params));
      case 'compact': {
        const result = await member.agent.compact({ force: parseParams(method, params).force ?? true });
        await this.#save(member);
        return result.compacted
          ? { compacted: true, tokens_before: result.tokensBefore, tokens_after: result.tokensAfter, tokens_saved: result.tokensSaved }
          : result;
      }
      case 'shutdown':
        parseParams(method, params);
        await this.#destroy(agentId, requester);
        return { success: true };
      default:
        throw refuse(`Method not found: ${method}.`, RPC_ERROR_CODES.methodNotFound);
    }
  }

  #requestingMember(requester: Requester): Member | undefined {
    if (requester.kind === 'token-holder') return undefined;
    const member = this.#members.get(requester.id);
    if (!member) throw refuse(`The requesting agent "${requester.id}" no longer exists.`);
    return member;
  }

  #refuseSandboxed(requester: Requester, action: string): void {
    if (this.#requestingMember(requester)?.permissions.level === 'sandboxed') throw refuse(`A sandboxed agent may not ${action}.`);
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
    requesting: Member | undefined,
  ): Promise<unknown> {
    let parent = requesting;
    if (params.parent_agent_id !== undefined) {
      if (requesting && params.parent_agent_id !== requesting.id)
        throw refuse(`Agent "${requesting.id}" may create only its own children, not children of "${params.parent_agent_id}".`);
      parent = await this.find(params.parent_agent_id);
      if (!parent) throw refuse(`No parent agent "${params.parent_agent_id}".`);
    }
    if (await this.find(id)) throw refuse(`Agent "${id}" already exists.`);
    const grant = await decideGrant(
      { preset: params.preset, cwd: params.cwd, allowedWritePaths: params.allowed_write_paths, disableTools: params.disable_tools },
      parent && { id: parent.id, grant: parent.grant, permissions: parent.permissions, depth: parent.depth },
      this.#base,
    );
    const member = this.#build({
      id,
      createdAt: new Date().toISOString(),
      parentId: parent?.id,
      grant,
      modelAlias: params.model ?? parent?.modelAlias,
      systemPrompt: params.system_prompt,
      messages: [],
    });
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

  #build(spec: {
    id: string;
    createdAt: string;
    parentId: string | undefined;
    grant: AgentGrant;
    modelAlias: string | undefined;
    systemPrompt: string | undefined;
    messages: readonly ModelMessage[];
  }): Member {
    const { settings, env, families, configureServices } = this.#options;
    let model: ReturnType<typeof resolveModel>;
    try {
      model = resolveModel(settings, spec.modelAlias, env);
    } catch (error) {
      if (ConfigError.isInstance(error)) throw refuse(error.message);
      throw error;
    }
    const permissions = permissionsOf(spec.grant, this.#base);
    const services = new ServiceContainer()
      .register('cwd', spec.grant.cwd)
      .register('permissions', permissions)
      .register('agentId', spec.id)
      .register('agentServer', this.connectionFor(spec.id));
    configureServices?.(services);
    const registry = new SkillRegistry(services);
    const defaults = settings.agent ?? {};
    const parent = spec.parentId === undefined ? undefined : this.#members.get(spec.parentId);
    let agent: Agent;
    try {
      agent = new Agent({
        model,
        registry: registry.use(...families),
        systemPrompt:
          spec.systemPrompt ??
          defaults.systemPrompt ??
          DEFAULT_SYSTEM_PROMPT.replace('{cwd}', spec.grant.cwd).replace('{level}', spec.grant.preset),
        messages: spec.messages,
        ...(defaults.maxToolIterations ? { maxToolIterations: defaults.maxToolIterations } : {}),
        ...(defaults.toolTimeoutSeconds ? { toolTimeoutMs: defaults.toolTimeoutSeconds * 1000 } : {}),
        ...(defaults.compactAt ? { compactAt: defaults.compactAt } : {}),
      });
    } catch (error) {
      // `use` may have followed some changing families before it refused a later one.
      registry.close();
      throw error;
    }
    const member: Member = {
      id: spec.id,
      createdAt: spec.createdAt,
      parentId: spec.parentId,
      depth: parent ? parent.depth + 1 : 1,
      grant: spec.grant,
      permissions,
      modelAlias: model.alias,
      agent,
      turns: new Map(),
      lastActionAt: new Date().toISOString(),
      usage: emptyUsage(),
    };
    this.#members.set(spec.id, member);
    return member;
  }

  #newRequestId(): string {
    return `req-${Date.now().toString(36)}-${++this.#requestCount}`;
  }

  async #send(member: Member, params: MethodParams<'send'>, requester: Requester, options: PoolSendOptions): Promise<unknown> {
    const requesting = this.#requestingMember(requester);
    if (requesting?.id === member.id) throw refuse(`Agent "${member.id}" may not send to itself.`);
    if (requesting?.permissions.level === 'sandboxed' && requesting.parentId !== member.id)
      throw refuse(`Agent "${requesting.id}" is sandboxed and may send only to its parent.`);
    const requestId = params.request_id ?? this.#newRequestId();
    const key = String(requestId);
    if (member.turns.has(key)) throw refuse(`A turn with request_id ${JSON.stringify(requestId)} is already running or queued.`);
    const controller = new AbortController();
    const stop = () => controller.abort();
    options.signal?.addEventListener('abort', stop);
    member.turns.set(key, controller);
    let result: TurnResult;
    try {
      result = await member.agent.send(params.content, {
        signal: controller.signal,
        requestId: key,
        ...(options.onEvent ? { onEvent: options.onEvent } : {}),
        // Nobody is there to answer a confirmation, unless the sender allowed them for this turn.
        ...(params.confirm === 'allow' ? { confirm: async () => true } : {}),
      });
    } finally {
      member.turns.delete(key);
      options.signal?.removeEventListener('abort', stop);
    }
    member.usage = addUsage(member.usage, result.usage);
    member.lastActionAt = new Date().toISOString();
    await this.#save(member);
    if (result.cancelled) return { cancelled: true, request_id: requestId };
    return { content: result.content, request_id: requestId, halted_at_iteration_limit: result.haltedAtIterationLimit };
  }

  async #destroy(agentId: string, requester: Requester): Promise<unknown> {
    const member = await this.find(agentId);
    if (!member) throw noSuchAgent(agentId);
    if (requester.kind === 'agent' && requester.id !== agentId && member.parentId !== requester.id) {
      throw refuse(`Agent "${requester.id}" may destroy only itself and its own children, not "${agentId}".`);
    }
    for (const turn of member.turns.values()) turn.abort();
    this.#members.delete(agentId);
    member.agent.registry.close();
    await this.#sessions.delete(agentId);
    return { success: true, agent_id: agentId };
  }

  #describe(member: Member) {
    const context = member.agent.context();
    const children = [...this.#members.values()].filter((other) => other.parentId === member.id).length;
    return {
      agent_id: member.id,
      is_temp: isTemporary(member.id),
      created_at: member.createdAt,
      message_count: context.message_count,
      parent_agent_id: member.parentId ?? null,
      child_count: children,
      halted_at_iteration_limit: context.halted_at_iteration_limit,
      model: member.modelAlias,
      last_action_at: member.lastActionAt,
      permission_level: member.permissions.level,
      cwd: member.grant.cwd,
      write_paths: member.grant.writePaths,
    };
  }

  #messages(member: Member, params: MethodParams<'get_messages'>) {
    const { offset = 0, limit = 200 } = params;
    const entries = member.agent.messages.flatMap(messageEntries);
    return {
      agent_id: member.id,
      total: entries.length,
      offset,
      limit,
      messages: entries.slice(offset, offset + limit).map((entry, index) => ({ index: offset + index, ...entry })),
    };
  }

  async #save(member: Member): Promise<void> {
    if (isTemporary(member.id) || !this.#members.has(member.id)) return;
    const context = member.agent.context();
    const session: Session = {
      schema_version: 1,
      agent_id: member.id,
      created_at: member.createdAt,
      modified_at: new Date().toISOString(),
      model: member.modelAlias,
      system_prompt: context.system_prompt,
      cwd: member.grant.cwd,
      permission_level: member.permissions.level,
      preset: member.grant.preset,
      disabled_tools: member.grant.disabledTools,
      write_paths: member.grant.writePaths,
      parent_agent_id: member.parentId ?? null,
      messages: member.agent.messages,
      token_usage: member.usage,
    };
    await this.#sessions.save(session);
  }

  async #restore(agentId: string): Promise<Member | undefined> {
    const session = await this.#sessions.load(agentId);
    if (!session || this.#members.has(agentId)) return this.#members.get(agentId);
    const member = this.#build({
      id: session.agent_id,
      createdAt: session.created_at,
      parentId: session.parent_agent_id ?? undefined,
      grant: { preset: session.preset, cwd: session.cwd, writePaths: session.write_paths, disabledTools: session.disabled_tools },
      modelAlias: session.model,
      systemPrompt: session.system_prompt,
      messages: session.messages,
    });
    member.usage = session.token_usage;
    return member;
  }
}

/** A message as `get_messages` lists it: one entry per text message and per tool result. */
function messageEntries(message: ModelMessage): Array<{ role: string; content: string; tool_call_id?: string; meta?: object }> {
  if (typeof message.content === 'string') return [{ role: message.role, content: message.content }];
  if (message.role === 'tool') {
    return message.content.flatMap((part) =>
      part.type === 'tool-result'
        ? [{ role: 'tool', content: 'value' in part.output ? String(part.output.value) : '', tool_call_id: part.toolCallId }]
        : [],
    );
  }
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const calls = message.content.flatMap((part) =>
    part.type === 'tool-call' ? [{ id: part.toolCallId, name: part.toolName, arguments: part.input }] : [],
  );
  return [{ role: message.role, content: text, ...(calls.length > 0 ? { meta: { tool_calls: calls } } : {}) }];
}
