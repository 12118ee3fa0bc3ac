import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { type AgentEvent, type AgentRuntime, type PoolSendOptions, type Requester, TOKEN_HOLDER } from '@nexus/agents';
import {
  checkAdmin,
  checkCompact,
  checkShutdownServer,
  type MethodName,
  memberSpecOf,
  methodAt,
  otherContentRefusal,
  type PoolChange,
  type PoolMember,
  parseParams,
  refuse,
  type SessionHeader,
  turnEventChange,
} from '@nexus/agents/kit';
import { ConfigError } from '@nexus/core';
import { AgentRpcError, type AgentServerConnection, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import { isLoopbackHost } from '@nexus/core/http';
import { createEndpointHandler, type LoggerTransport } from '@restatedev/restate-sdk';
import { AGENT_OBJECT, agentObject, type HandlerInput } from './agent-object.js';
import { openEventSink, takeRelayedEvent } from './event-relay.js';
import { checkOwnerStored, ownerReachedStored, storedOwners } from './owners.js';
import { REFUSAL_MARK } from './refusals.js';
import {
  attachInvocation,
  cancelInvocation,
  InvocationCancelled,
  invokeObject,
  queryRows,
  type RestateUrls,
  registerDeployment,
  sqlText,
} from './restate-client.js';
import { type WorkerAgentOptions, WorkerAgents } from './worker-agents.js';

/** How {@link startRestateRuntime} joins a Restate cluster. */
export interface RestateRuntimeOptions extends WorkerAgentOptions, RestateUrls {
  /** Port this worker serves Restate's invocations on (default 9080; 0 for any free one). */
  endpointPort?: number;
  /** Address it listens on for them (default `127.0.0.1`; the Restate servers must reach it). */
  endpointHost?: string;
  /**
   * The Restate cluster's request identity public keys (`publickeyv1_…`, which the server logs at
   * start when it has a request identity private key): the endpoint then answers only requests the
   * cluster signed. Required when `endpointHost` is not loopback — the endpoint runs agents' turns,
   * tools included, for whoever reaches it.
   */
  identityKeys?: readonly string[];
  /**
   * The URL registered as the deployment: one URL for every worker (a load balancer in front of
   * them), since Restate sends each invocation, and its retries, to the deployment it started on.
   * Default: this worker's own endpoint (one worker). Restate speaks HTTP/2 to a worker's own
   * endpoint (each turn one bidirectional stream) and HTTP/1.1 to a deployment URL, which a plain
   * load balancer forwards (request-response: the invocation is suspended and replayed at each
   * journaled step, which costs more per step).
   */
  deploymentUrl?: string;
}

/** How long `wait_for` waits when not told (specs/agent-server.md §8). */
const DEFAULT_WAIT_MS = 30_000;

/** How long `resolve_approval` waits for the turn to take the decision before it answers anyway. */
const DECISION_TAKEN_WITHIN_MS = 30_000;

/** The agent methods the Restate runtime runs as handlers of the agents' virtual object, by their handler. */
const AGENT_HANDLERS: Partial<Record<MethodName, string>> = {
  send: 'send',
  get_context: 'get_context',
  get_tokens: 'get_tokens',
  get_messages: 'get_messages',
  list_approvals: 'list_approvals',
  compact: 'compact',
  resolve_approval: 'resolve_approval',
  shutdown: 'destroy',
  cancel: 'send',
  wait_for: 'send',
};

/**
 * The Restate runtime (specs/agent-server.md §10): each agent a Restate virtual object keyed by its
 * id, whose turns run one at a time on whichever worker Restate reaches, each model step and tool
 * call a journaled step. This process is one worker: it serves the object's handlers to Restate
 * (its endpoint) and, as an {@link AgentRuntime}, sends the JSON-RPC front end's methods to them
 * through Restate's ingress — so any worker's front end reaches every agent.
 */
export class RestateRuntime extends EventEmitter<{ shutdown: []; change: [PoolChange] }> implements AgentRuntime {
  readonly #urls: RestateUrls;
  readonly #endpoint: Server | Http2Server;
  readonly #sessions: Set<Http2Session>;
  readonly #agents: WorkerAgents;
  #requestCount = 0;
  /** The owners {@link ownerOf} knows, from the headers this worker read (an agent's owner never changes). */
  readonly #owners = new Map<string, string>();
  /** The port agents' `nexus_*` skills see as this server's (set by `serveAgents`). */
  port = 0;
  /** Where this worker serves Restate's invocations (`http://host:port`). */
  readonly endpointUrl: string;

  /** Use {@link startRestateRuntime}. */
  constructor(urls: RestateUrls, endpoint: Server | Http2Server, agents: WorkerAgents, endpointUrl: string, sessions: Set<Http2Session>) {
    super();
    this.#urls = urls;
    this.#endpoint = endpoint;
    this.#sessions = sessions;
    this.#agents = agents;
    this.endpointUrl = endpointUrl;
  }

  /** An in-process connection for agent `id`'s skills: its calls are that agent's. */
  connectionFor(id: string): AgentServerConnection {
    const requester: Requester = { kind: 'agent', id };
    const runtime = this;
    return {
      get port() {
        return runtime.port;
      },
      call: (method, params, agentId, options) => this.call(method, params, requester, agentId, options),
    };
  }

  /** Runs a method as the local runtime does, its agents' state and turns in Restate. */
  async call(name: string, params: unknown, requester: Requester, agentId?: string, options: PoolSendOptions = {}): Promise<unknown> {
    const method = methodAt(name, agentId);
    switch (method) {
      case 'create_agent':
        return this.#create(params, requester);
      case 'destroy_agent': {
        const { agent_id } = parseParams(method, params);
        await checkOwnerStored(requester, agent_id, this.#headerOf);
        return this.#destroy(agent_id, requester);
      }
      case 'list_agents':
        parseParams(method, params);
        return { agents: await this.#list(requester) };
      case 'list_approvals':
        if (agentId !== undefined) break;
        return { approvals: await this.#allApprovals(parseParams(method, params).agent_id, requester) };
      case 'shutdown_server':
        parseParams(method, params);
        checkAdmin(requester, 'shut the server down');
        if (requester.kind === 'agent') checkShutdownServer(await this.#storedAgent(requester.id));
        setImmediate(() => this.emit('shutdown'));
        return { success: true, message: 'The server is shutting down.' };
      default:
        break;
    }
    const handler = AGENT_HANDLERS[method];
    if (handler === undefined || agentId === undefined)
      throw refuse(`${method} is not available on the restate runtime yet.`, RPC_ERROR_CODES.methodNotFound);
    await checkOwnerStored(requester, agentId, this.#headerOf);
    if (method === 'send') return this.#send(agentId, params, requester, options);
    if (method === 'resolve_approval') return this.#resolveApproval(agentId, params, requester);
    if (method === 'cancel') return this.#cancel(agentId, params);
    if (method === 'wait_for') return this.#waitFor(agentId, params);
    if (method === 'shutdown') {
      parseParams(method, params);
      await this.#destroy(agentId, requester);
      return { success: true };
    }
    if (method === 'compact') {
      parseParams(method, params);
      // An exclusive handler: it would queue behind a turn paused for approval until a person decides.
      checkCompact(agentId, (await this.#approvalsOf(agentId))[0]?.request_id);
    }
    return this.#invoke(agentId, handler, { params: params ?? {}, requester });
  }

  /** An agent as stored (no conversation), to decide what it may do. */
  async #storedAgent(id: string): Promise<PoolMember> {
    const header = await this.#headerOf(id);
    if (!header) throw refuse(`The requesting agent "${id}" no longer exists.`);
    return this.#agents.build(memberSpecOf({ ...header, messages: [] }), []);
  }

  /** An agent's stored header (`null`: no such agent); notes its owner for {@link ownerOf}. */
  readonly #headerOf = async (id: string) => {
    const header = (await this.#invoke(id, 'header', { params: {}, requester: TOKEN_HOLDER })) as SessionHeader | null;
    if (header?.owner === undefined) this.#owners.delete(id);
    else this.#owners.set(id, header.owner);
    return header;
  };

  /**
   * The person who owns an agent this worker created or read the header of (`undefined`: the
   * static token holder's, or not known here) — what a person's `watch` goes by for an agent
   * created after it started.
   */
  ownerOf(agentId: string): string | undefined {
    return this.#owners.get(agentId);
  }

  #invoke(agentId: string, handler: string, input: HandlerInput & Record<string, unknown>, idempotencyKey?: string): Promise<unknown> {
    return invokeObject(this.#urls, { service: AGENT_OBJECT, key: agentId, handler }, input, idempotencyKey ? { idempotencyKey } : {});
  }

  async #destroy(agentId: string, requester: Requester): Promise<unknown> {
    const answer = await this.#invoke(agentId, 'destroy', { params: {}, requester });
    this.emit('change', { name: 'agent_destroyed', data: { agent_id: agentId } });
    this.#owners.delete(agentId);
    return answer;
  }

  async #create(raw: unknown, requester: Requester): Promise<unknown> {
    const params = parseParams('create_agent', raw);
    const id = params.agent_id ?? `.${randomUUID().slice(0, 8)}`;
    if (params.parent_agent_id !== undefined) await checkOwnerStored(requester, params.parent_agent_id, this.#headerOf);
    const { initial_message, wait_for_initial_response, ...creation } = params;
    const result = (await this.#invoke(id, 'create', { params: { ...creation, agent_id: id }, requester })) as Record<string, unknown>;
    await this.#headerOf(id);
    // §5: an agent's child is its own unless it names one of its own below it.
    const parentId = params.parent_agent_id ?? (requester.kind === 'agent' ? requester.id : null);
    this.emit('change', { name: 'agent_created', data: { agent_id: id, parent_agent_id: parentId } });
    if (initial_message === undefined) return result;
    const requestId = this.#newRequestId();
    const turn = { params: { content: initial_message, request_id: requestId }, requester, requestId };
    if (wait_for_initial_response)
      return { ...result, initial_request_id: requestId, response: await this.#invoke(id, 'send', turn, requestId) };
    await invokeObject(this.#urls, { service: AGENT_OBJECT, key: id, handler: 'send' }, turn, { idempotencyKey: requestId, oneWay: true });
    return { ...result, initial_request_id: requestId, initial_status: 'queued' };
  }

  /**
   * A turn: the request id is its idempotency key (with the content's digest, so that a repeated
   * `send` with other content reaches the handler, which refuses it). Answers at the turn's end,
   * or once it waits for approvals (the turn goes on waiting in Restate).
   */
  async #send(agentId: string, raw: unknown, requester: Requester, options: PoolSendOptions): Promise<unknown> {
    const params = parseParams('send', raw);
    const requestId = params.request_id === undefined ? this.#newRequestId() : String(params.request_id);
    const digest = createHash('sha256').update(params.content).digest('hex').slice(0, 16);
    const idempotencyKey = `${requestId}:${digest}`;
    const attached = new AbortController();
    const stop = () => {
      attached.abort();
      // A streaming client that went away cancels its turn, as on the local runtime.
      this.#cancel(agentId, { request_id: requestId }).catch(() => {});
    };
    options.signal?.addEventListener('abort', stop);
    const wireId = params.request_id ?? requestId;
    // A client's id may name a turn waiting for approval, or one cancelled while queued (a retry): that is the answer.
    if (params.request_id !== undefined) {
      const [waiting, cancelled] = await Promise.all([this.#approvalsOf(agentId, requestId), this.#cancelNote(agentId, requestId)]);
      if (waiting.length > 0) return { status: 'awaiting_approval', request_id: wireId, approvals: waiting };
      if (cancelled !== undefined && cancelled !== cancelNoteKey(idempotencyKey)) throw otherContentRefusal(wireId);
      if (cancelled !== undefined) return { cancelled: true, request_id: wireId };
    }
    // Told once the turn shows it runs (an event, its pause or its answer): a send the handler refuses is no turn.
    let started = false;
    const turnStarted = () => {
      if (!started)
        this.emit('change', { name: 'turn_started', data: { agent_id: agentId, request_id: requestId, content: params.content } });
      started = true;
    };
    let paused: (approvals: readonly object[]) => void = () => {};
    const pausedAnswer = new Promise<object>((resolve) => {
      paused = (approvals) => resolve({ status: 'awaiting_approval', request_id: wireId, approvals });
    });
    const watched = this.listenerCount('change') > 0;
    // The turn's events come here only when someone streams or watches them (each costs a notice).
    const onEvent =
      options.onEvent || watched
        ? (event: AgentEvent) => {
            options.onEvent?.(event);
            turnStarted();
            const change = turnEventChange(agentId, requestId, event);
            if (change) this.emit('change', change);
          }
        : undefined;
    const sink = openEventSink(this.endpointUrl, { onPaused: paused, ...(onEvent ? { onEvent } : {}) });

    const ended = invokeObject(
      this.#urls,
      { service: AGENT_OBJECT, key: agentId, handler: 'send' },
      { params, requester, requestId, events: { url: sink.url, token: sink.token, stream: sink.stream } },
      { idempotencyKey, signal: attached.signal },
    );
    const turnEnded = (reply: unknown) => {
      turnStarted();
      this.emit('change', { name: 'turn_ended', data: { agent_id: agentId, request_id: requestId, reply } });
    };
    try {
      // The turn's end, or its pause for approval (it goes on waiting in Restate).
      const answer = await Promise.race([ended, pausedAnswer]);
      if ((answer as { status?: string }).status === 'awaiting_approval') turnStarted();
      else turnEnded(answer);
      return answer;
    } catch (error) {
      // Cancelled while it was queued: Restate ended it before the handler ran.
      if (error instanceof InvocationCancelled) {
        const reply = { cancelled: true, request_id: wireId };
        turnEnded(reply);
        return reply;
      }
      if (!AgentRpcError.isInstance(error)) turnEnded({ request_id: requestId, status: 'failed' });
      throw error;
    } finally {
      sink.close();
      options.signal?.removeEventListener('abort', stop);
      // A turn that paused goes on in Restate; this request stops waiting for its end.
      attached.abort();
      ended.catch(() => {});
    }
  }

  /** The approvals turn `requestId` of an agent waits on (any turn's when absent). */
  async #approvalsOf(agentId: string, requestId?: string): Promise<Array<{ request_id: string }>> {
    const { approvals } = (await this.#invoke(agentId, 'list_approvals', { params: {}, requester: TOKEN_HOLDER })) as {
      approvals: Array<{ request_id: string }>;
    };
    return approvals.filter((approval) => requestId === undefined || approval.request_id === requestId);
  }

  /**
   * Resolves an approval (its awakeable, wherever the turn waits) and answers once the turn has
   * taken the decision — as on the local runtime, a `send` or `wait_for` after the answer sees the
   * turn going on, not the approval.
   */
  async #resolveApproval(agentId: string, params: unknown, requester: Requester): Promise<unknown> {
    const answer = (await this.#invoke(agentId, 'resolve_approval', { params, requester })) as { request_id: string; status: string };
    const { approval_id } = parseParams('resolve_approval', params);
    const stillPending = async () => {
      const { approvals } = (await this.#invoke(agentId, 'list_approvals', { params: {}, requester: TOKEN_HOLDER })) as {
        approvals: Array<{ approval_id: string }>;
      };
      return approvals.some((approval) => approval.approval_id === approval_id);
    };
    for (
      let wait = 10, waited = 0;
      waited < DECISION_TAKEN_WITHIN_MS && (await stillPending());
      waited += wait, wait = Math.min(wait * 2, 250)
    )
      await delay(wait);
    this.emit('change', {
      name: 'approval_resolved',
      data: { agent_id: agentId, request_id: answer.request_id, approval_id, status: answer.status },
    });
    return answer;
  }

  /**
   * The invocations of a turn (by its idempotency key), oldest first: its `send`s not ended or, with
   * `all`, every one and the note of its cancel before it ran (handler `cancelled`).
   */
  async #turnInvocations(
    agentId: string,
    requestId: string,
    all: boolean,
  ): Promise<Array<{ id: string; status: string; handler: string; key: string }>> {
    return queryRows(
      this.#urls,
      `SELECT id, status, target_handler_name AS handler, idempotency_key AS key FROM sys_invocation WHERE target_service_name = ${sqlText(AGENT_OBJECT)}` +
        ` AND target_service_key = ${sqlText(agentId)} AND starts_with(idempotency_key, ${sqlText(`${requestId}:`)})` +
        (all ? ` AND target_handler_name IN ('send', 'cancelled')` : ` AND target_handler_name = 'send' AND status != 'completed'`) +
        ' ORDER BY created_at',
    );
  }

  /** Cancels a queued, running or paused turn through Restate's cancellation, wherever it runs. */
  async #cancel(agentId: string, raw: unknown): Promise<unknown> {
    const { request_id } = parseParams('cancel', raw);
    const open = await this.#turnInvocations(agentId, String(request_id), false);
    if (open.length === 0) return { cancelled: false, request_id, reason: 'not_found_or_completed' };
    await Promise.all(open.map(({ id }) => cancelInvocation(this.#urls, id)));
    // Restate forgets an invocation cancelled while queued: a note of it (with the content's digest) answers `wait_for` and a repeated `send` as the local runtime does.
    const queued = open.filter(({ status }) => status === 'pending');
    await Promise.all(
      queued.map(({ key }) => this.#invoke(agentId, 'cancelled', { params: {}, requester: TOKEN_HOLDER }, cancelNoteKey(key))),
    );
    return { cancelled: true, request_id };
  }

  /** The idempotency key of the note of turn `requestId`'s cancel before it ran (`undefined`: none). */
  async #cancelNote(agentId: string, requestId: string): Promise<string | undefined> {
    const notes = (await this.#turnInvocations(agentId, requestId, true)).filter(({ handler }) => handler === 'cancelled');
    return notes[0]?.key;
  }

  /** `wait_for`: the turn's answer once it ends or, at `timeout_ms`, where it stands. */
  async #waitFor(agentId: string, raw: unknown): Promise<unknown> {
    const { request_id, timeout_ms = DEFAULT_WAIT_MS } = parseParams('wait_for', raw);
    const [invocation] = await this.#turnInvocations(agentId, String(request_id), true);
    if (invocation === undefined) throw refuse(`Agent "${agentId}" has no turn with request_id ${JSON.stringify(request_id)}.`);
    if (invocation.handler === 'cancelled') return { cancelled: true, request_id };
    // An ended turn's answer is there at once: no timer, which could cut even that short (`timeout_ms: 0`).
    const timer = invocation.status === 'completed' ? undefined : AbortSignal.timeout(timeout_ms);
    try {
      return await attachInvocation(this.#urls, invocation.id, timer);
    } catch (error) {
      if (error instanceof InvocationCancelled) return { cancelled: true, request_id };
      if (!timer?.aborted) throw error;
    }
    const mine = await this.#approvalsOf(agentId, String(request_id));
    return mine.length > 0 ? { status: 'awaiting_approval', request_id, approvals: mine } : { status: 'running', request_id };
  }

  async #allApprovals(only: string | undefined, requester: Requester): Promise<object[]> {
    const ids = (await this.#reached(requester)).filter((id) => only === undefined || id === only);
    const lists = await Promise.all(
      ids.map((id) =>
        (this.#invoke(id, 'list_approvals', { params: {}, requester }) as Promise<{ approvals: object[] }>).then(
          (answer) => answer.approvals,
          () => [],
        ),
      ),
    );
    return lists.flat();
  }

  /** The ids of the stored agents `requester` reaches (another person's are not). */
  async #reached(requester: Requester): Promise<string[]> {
    const owner = await ownerReachedStored(requester, this.#headerOf);
    return (await storedOwners(this.#urls, AGENT_OBJECT))
      .filter((agent) => owner === undefined || agent.owner === owner)
      .map(({ id }) => id);
  }

  async #list(requester: Requester): Promise<object[]> {
    const ids = await this.#reached(requester);
    const agents = (await Promise.all(
      ids.map((id) => this.#invoke(id, 'describe', { params: {}, requester: { kind: 'token-holder' } })),
    )) as Array<Record<string, unknown>>;
    return agents.map((agent) => ({ ...agent, child_count: agents.filter((other) => other.parent_agent_id === agent.agent_id).length }));
  }

  #newRequestId(): string {
    return `req-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}-${++this.#requestCount}`;
  }

  /** Stops serving Restate's invocations (a turn running here resumes on another worker) and lets go of the agents. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#endpoint.close(() => resolve()));
    if ('closeAllConnections' in this.#endpoint) this.#endpoint.closeAllConnections();
    for (const session of this.#sessions) session.destroy();
    await closed;
    this.#agents.close();
  }
}

/** The idempotency key of the note of a turn's cancel before it ran: its `send`'s, marked. */
function cancelNoteKey(sendKey: string): string {
  return `${sendKey}:cancelled`;
}

/** What the SDK says of an invocation whose connection to Restate went away under it. */
const CONNECTION_LOST = /Premature close|write after end|abort error from connection/;

/**
 * The SDK's log lines a worker prints (on stderr): warnings and errors, not one line per invocation.
 * Once the worker closes (`closing`), the invocations it still runs lose their connection on purpose
 * — Restate runs them again on another worker — so what the SDK says of that is not printed.
 */
function warningsOnly(closing: () => boolean): LoggerTransport {
  return (meta, message, ...more) => {
    if (meta.replaying || !['warn', 'error'].includes(String(meta.level))) return;
    const parts = [message, ...more].map(String);
    // A refusal is the caller's answer, not the worker's trouble.
    if (parts.some((part) => part.includes(REFUSAL_MARK))) return;
    if (closing() && parts.some((part) => CONNECTION_LOST.test(part))) return;
    process.stderr.write(`nexus serve (restate) ${meta.level}: ${parts.join(' ')}\n`);
  };
}

/**
 * Starts a worker of the Restate runtime: serves the agents' virtual object on its endpoint,
 * registers the deployment with the admin API, and returns the runtime for `serveAgents`.
 */
export async function startRestateRuntime(options: RestateRuntimeOptions): Promise<RestateRuntime> {
  const { endpointPort = 9080, endpointHost = '127.0.0.1', identityKeys = [], ingress, admin } = options;
  if (!isLoopbackHost(endpointHost) && identityKeys.length === 0)
    throw new ConfigError(
      `The Restate endpoint's address ${endpointHost} is not loopback: give the Restate cluster's request identity keys (identityKeys, --restate-identity-key), so that only the cluster may run agents' turns.`,
    );
  const urls = { ingress, admin };
  let runtime: RestateRuntime | undefined;
  const agents = new WorkerAgents(options, (id) => (runtime as RestateRuntime).connectionFor(id));
  // The endpoint stops listening as `close` begins.
  let closing = () => false;
  const handler = createEndpointHandler({
    services: [agentObject(agents, urls)],
    logger: warningsOnly(() => closing()),
    ...(identityKeys.length > 0 ? { identityKeys: [...identityKeys] } : {}),
  });
  const http1 = options.deploymentUrl !== undefined;
  const sessions = new Set<Http2Session>();
  const endpoint = http1
    ? createServer((request, response) => takeRelayedEvent(request, response) || handler(request, response))
    : createHttp2Server((request, response) => takeRelayedEvent(request, response) || handler(request, response));
  endpoint.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  endpoint.listen(endpointPort, endpointHost);
  await once(endpoint, 'listening');
  closing = () => !endpoint.listening;
  const host = endpointHost.includes(':') ? `[${endpointHost}]` : endpointHost;
  const endpointUrl = `http://${host}:${(endpoint.address() as AddressInfo).port}`;
  runtime = new RestateRuntime(urls, endpoint, agents, endpointUrl, sessions);
  try {
    await registerDeployment(urls, options.deploymentUrl ?? endpointUrl, { http1 });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  return runtime;
}
