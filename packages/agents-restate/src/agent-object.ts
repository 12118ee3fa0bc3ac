import { type ApprovalDecision, MAX_AGENT_DEPTH, type Requester, type TurnResult } from '@nexus/agents';
import {
  addUsage,
  approvalReply,
  asksWrite,
  checkApprover,
  checkDestroy,
  checkParentChoice,
  checkSend,
  closeInterruptedCalls,
  compactReply,
  contextReply,
  createdSpec,
  deciderName,
  describeMember,
  ENDED_TURNS_KEPT,
  type EndedTurn,
  grantOf,
  type MethodParams,
  memberSpecOf,
  messagesPage,
  noSuchAgent,
  otherContentRefusal,
  type PoolMember,
  parseParams,
  refuse,
  type Session,
  type SessionHeader,
  sendReply,
  sessionOf,
} from '@nexus/agents/kit';
import { policyDigest } from '@nexus/core';
import { AgentRpcError } from '@nexus/core/agent-server';
import * as restate from '@restatedev/restate-sdk';
import { CancelWatch } from './cancel-watch.js';
import { type EventTarget, relayTo } from './event-relay.js';
import { oneAtATime, TurnSteps } from './journal.js';
import { encodeRefusal } from './refusals.js';
import { invokeObject, type RestateUrls } from './restate-client.js';
import type { WorkerAgents } from './worker-agents.js';

/** The Restate service name of the agents' virtual object. */
export const AGENT_OBJECT = 'NexusAgent';

/** What the front end sends each handler: the method's params and who asks. */
export interface HandlerInput {
  readonly params: unknown;
  readonly requester: Requester;
}

/** State keys: the session header, the message count, and one key per message (Restate limits one value's size). */
const HEADER = 'header';
const COUNT = 'message_count';
const messageKey = (index: number) => `message:${index}`;
/** The approvals the running turn waits on, each with the awakeable that resumes it. */
const PENDING = 'pending_approvals';
/** An approval as the wire shows it, with the id of the awakeable its decision resolves. */
type PendingEntry = ReturnType<typeof approvalReply> & { awakeable_id: string };
/** Past turns' content and answers by request id, for a repeated `send` with other content. */
const endedKey = (requestId: string) => `ended:${requestId}`;
/** The request ids of the turns kept under {@link endedKey}, oldest first. */
const ENDED = 'ended_turns';

type Shared = restate.ObjectSharedContext;
type Exclusive = restate.ObjectContext;

/**
 * Runs a handler's body (or a journaled step); an `AgentRpcError` (a refusal, an unknown agent)
 * ends the invocation for good, as its JSON-RPC error — Restate would retry any other error.
 */
async function answering<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (AgentRpcError.isInstance(error)) throw new restate.TerminalError(encodeRefusal(error), { errorCode: 400 });
    throw error;
  }
}

async function storedHeader(ctx: Shared, id: string): Promise<SessionHeader> {
  const header = await ctx.get<SessionHeader>(HEADER);
  if (!header) throw noSuchAgent(id);
  return header;
}

/** The stored conversation, read in a shared invocation of its own. */
async function storedMessages(ctx: Shared): Promise<Session['messages']> {
  const count = (await ctx.get<number>(COUNT)) ?? 0;
  const messages: Session['messages'] = [];
  for (let index = 0; index < count; index++) messages.push((await ctx.get<Session['messages'][number]>(messageKey(index))) as never);
  return messages;
}

/**
 * The agent this object holds, as this worker's copy of it. The invocation's journal reads the
 * header and the message count only, whether or not this worker has the agent already — a replay
 * elsewhere must take the same steps; a worker without an up-to-date copy reads the conversation
 * through the ingress, outside the journal (a read: the exclusive handler holding the object
 * means nothing changes it meanwhile).
 */
async function load(ctx: Shared, agents: WorkerAgents, urls: RestateUrls): Promise<PoolMember> {
  const header = await storedHeader(ctx, ctx.key);
  const count = (await ctx.get<number>(COUNT)) ?? 0;
  const messages = async () => {
    const messages = (await invokeObject(urls, { service: AGENT_OBJECT, key: ctx.key, handler: 'history' }, null)) as Session['messages'];
    if (messages.length !== count) throw new Error(`Agent "${ctx.key}"'s conversation moved on while it was read; trying again.`);
    return messages;
  };
  // An agent's parent never changes: its lineage, like the conversation, is read outside the journal.
  const headerOf = (id: string) =>
    invokeObject(urls, { service: AGENT_OBJECT, key: id, handler: 'header' }, null) as Promise<SessionHeader | null>;
  return agents.get(header, count, messages, () => lineOf(header.parent_agent_id ?? undefined, headerOf));
}

/** Stores what a turn changed: the new messages (all of them after a compaction), the count and the header. */
function store(ctx: Exclusive, member: PoolMember, before: number, rewritten: boolean, conversation?: Session['messages']): number {
  const { messages: held, ...header } = sessionOf(member);
  const messages = conversation ?? held;
  for (let index = rewritten ? 0 : before; index < messages.length; index++) ctx.set(messageKey(index), messages[index]);
  for (let index = messages.length; index < before; index++) ctx.clear(messageKey(index));
  ctx.set(COUNT, messages.length);
  ctx.set(HEADER, header);
  return messages.length;
}

/**
 * The Restate virtual object of the agents, keyed by agent id: its exclusive handlers (`create`,
 * `send`, `destroy`) run one at a time per agent, in arrival order, on whichever worker Restate
 * reaches; its shared ones (`get_context`, `get_tokens`, `get_messages`, `describe`) answer while
 * a turn runs. A turn's model steps and tool calls are `ctx.run` steps of the `send` invocation.
 */
export function agentObject(agents: WorkerAgents, urls: RestateUrls) {
  const cancels = new CancelWatch(urls);
  return restate.object({
    name: AGENT_OBJECT,
    handlers: {
      create: async (ctx: Exclusive, input: HandlerInput) =>
        answering(async () => {
          const params = parseParams('create_agent', input.params);
          if (await ctx.get(HEADER)) throw refuse(`Agent "${ctx.key}" already exists.`);
          // §5: an agent's child is its own (below it); the token holder's has the parent it names, or none.
          const requestingAgent = input.requester.kind === 'agent' ? await requesting(ctx, agents, input.requester.id) : undefined;
          let parent = requestingAgent;
          if (params.parent_agent_id !== undefined) {
            checkParentChoice(requestingAgent, params.parent_agent_id);
            const parentHeader = await ctx.objectClient<AgentObject>({ name: AGENT_OBJECT }, params.parent_agent_id).header();
            if (!parentHeader) throw refuse(`No parent agent "${params.parent_agent_id}".`);
            parent = await memberWithDepth(ctx, agents, parentHeader);
          }
          // Checks the file system: journaled, so a replay decides as the first run did.
          const grant = await ctx.run('grant', () => answering(() => grantOf(params, parent, agents.base, input.requester)));
          const createdAt = new Date(await ctx.date.now()).toISOString();
          const member = agents.build(createdSpec(ctx.key, createdAt, params, parent, grant), await lineOf(parent?.id, headerThrough(ctx)));
          agents.remember(member, store(ctx, member, 0, false));
          return { agent_id: ctx.key, url: `/agent/${ctx.key}` };
        }),

      send: async (ctx: Exclusive, input: HandlerInput & { readonly requestId: string; readonly events?: EventTarget }) =>
        answering(async () => {
          const params = parseParams('send', input.params);
          const member = await load(ctx, agents, urls);
          if (input.requester.kind === 'agent') checkSend(await requesting(ctx, agents, input.requester.id), member);
          const earlier = await ctx.get<EndedTurn>(endedKey(input.requestId));
          if (earlier) {
            if (earlier.content !== params.content) throw otherContentRefusal(params.request_id ?? input.requestId);
            return earlier.reply;
          }
          const before = member.agent.messages.length;
          let rewritten = false;
          // Restate's cancellation reaches the turn at its next journaled step, and a running step through the watch: the turn then stops.
          let cancelled = false;
          const abort = new AbortController();
          const invocationId = ctx.request().id;
          const steps = new TurnSteps(ctx, (answer) => asksWrite(member.agent.registry, answer));
          agents.journalFor(
            ctx.key,
            oneAtATime(async (name, run, step) => {
              try {
                return await steps.run(name, () => cancels.during(invocationId, abort, run), step);
              } catch (error) {
                if (isCancellation(error)) {
                  cancelled = true;
                  abort.abort();
                }
                throw error;
              }
            }),
          );
          const wireId = params.request_id ?? input.requestId;
          const relay = relayTo(input.events);
          let result: TurnResult;
          try {
            result = await member.agent.send(params.content, {
              requestId: input.requestId,
              signal: abort.signal,
              onEvent: (event) => {
                if (event.type === 'compacted') rewritten = true;
                relay.emit(event);
              },
              ...(params.confirm ? { confirm: () => params.confirm === 'allow' } : {}),
            });
            await steps.close();
            result = await approvalsDecided(ctx, member, result, relay, steps);
          } catch (error) {
            await steps.close();
            if (!cancelled && !isCancellation(error)) throw error;
            const reply = { cancelled: true, request_id: wireId };
            ctx.clear(PENDING);
            await noteEnded(ctx, input.requestId, { content: params.content, reply });
            store(ctx, member, before, rewritten, closeInterruptedCalls(member.agent.messages, 'cancelled by the user'));
            // This worker's copy stopped mid-turn: the next invocation rebuilds it from the stored state.
            agents.forget(ctx.key);
            return reply;
          }
          await relay.drained();
          member.usage = addUsage(member.usage, result.usage);
          const reply = sendReply(member.id, result, wireId);
          await noteEnded(ctx, input.requestId, { content: params.content, reply });
          agents.remember(member, store(ctx, member, before, rewritten));
          return reply;
        }),

      compact: async (ctx: Exclusive, input: HandlerInput) =>
        answering(async () => {
          const { force = true } = parseParams('compact', input.params);
          const member = await load(ctx, agents, urls);
          const before = member.agent.messages.length;
          // Not journaled: a compaction cut short by a crash has changed nothing stored, and is made again.
          const result = await member.agent.compact({ force });
          if (result.compacted) agents.remember(member, store(ctx, member, before, true));
          return compactReply(result);
        }),

      destroy: async (ctx: Exclusive, input: HandlerInput) =>
        answering(async () => {
          const member = await load(ctx, agents, urls);
          checkDestroy(input.requester, member);
          ctx.clearAll();
          agents.forget(ctx.key);
          return { success: true, agent_id: ctx.key };
        }),

      list_approvals: restate.handlers.object.shared(async (ctx: Shared, input: HandlerInput) =>
        answering(async () => {
          if (parseParams('list_approvals', input.params).agent_id !== undefined)
            throw refuse('Invalid params for list_approvals: agent_id is for POST / (an agent lists its own approvals).');
          checkApprover(input.requester, ctx.key, await ancestry(ctx));
          const pending = (await ctx.get<PendingEntry[]>(PENDING)) ?? [];
          return { approvals: pending.map(({ awakeable_id: _id, ...approval }) => approval) };
        }),
      ),

      resolve_approval: restate.handlers.object.shared(async (ctx: Shared, input: HandlerInput) =>
        answering(async () => {
          const params = parseParams('resolve_approval', input.params);
          checkApprover(input.requester, ctx.key, await ancestry(ctx));
          const entry = ((await ctx.get<PendingEntry[]>(PENDING)) ?? []).find((pending) => pending.approval_id === params.approval_id);
          if (!entry) throw refuse(`Agent "${ctx.key}" has no pending approval "${params.approval_id}".`);
          const decision: ApprovalDecision = {
            decision: params.decision,
            by: deciderName(input.requester),
            ...(params.remember === undefined ? {} : { remember: params.remember }),
            ...(params.note === undefined ? {} : { note: params.note }),
          };
          // What the turn will decide, told now: it checks the same digests where it runs.
          const { agent } = await load(ctx, agents, urls);
          const stale =
            policyDigest(agent.registry.services) !== entry.policy_digest ||
            agent.registry.getSpec(entry.tool)?.packageDigest !== entry.package_digest;
          ctx.resolveAwakeable(entry.awakeable_id, decision);
          const status = params.decision === 'deny' ? 'denied' : stale ? 'stale' : 'approved';
          return { resolved: true, request_id: entry.request_id, status };
        }),
      ),

      history: restate.handlers.object.shared(async (ctx: Shared) => storedMessages(ctx)),

      // Does nothing: its invocation (idempotency key `<request id>:cancelled`) records a turn cancelled before it ran, which leaves no invocation of its own.
      cancelled: restate.handlers.object.shared(async () => null),

      header: restate.handlers.object.shared(async (ctx: Shared) => (await ctx.get<SessionHeader>(HEADER)) ?? null),

      describe: restate.handlers.object.shared(async (ctx: Shared) =>
        answering(async () => describeMember(await load(ctx, agents, urls), 0)),
      ),

      get_context: restate.handlers.object.shared(async (ctx: Shared, input: HandlerInput) =>
        answering(async () => {
          parseParams('get_context', input.params);
          return contextReply(await load(ctx, agents, urls));
        }),
      ),

      get_tokens: restate.handlers.object.shared(async (ctx: Shared, input: HandlerInput) =>
        answering(async () => {
          parseParams('get_tokens', input.params);
          return (await load(ctx, agents, urls)).agent.tokens();
        }),
      ),

      get_messages: restate.handlers.object.shared(async (ctx: Shared, input: HandlerInput) =>
        answering(async () =>
          messagesPage(await load(ctx, agents, urls), parseParams('get_messages', input.params) as MethodParams<'get_messages'>),
        ),
      ),
    },
  });
}

/** The agents' virtual object, as a typed client sees it. */
export type AgentObject = ReturnType<typeof agentObject>;

/** The agent asking (an agent's `nexus_*` skill), from its stored header. */
async function requesting(ctx: Exclusive, agents: WorkerAgents, id: string): Promise<PoolMember> {
  const header = await ctx.objectClient<AgentObject>({ name: AGENT_OBJECT }, id).header();
  if (!header) throw refuse(`The requesting agent "${id}" no longer exists.`);
  return memberWithDepth(ctx, agents, header);
}

/** An agent built from its stored header (no conversation), at its depth: 1 plus its ancestors (the depth limit of §5). */
async function memberWithDepth(ctx: Exclusive, agents: WorkerAgents, header: SessionHeader): Promise<PoolMember> {
  const line = await lineOf(header.parent_agent_id ?? undefined, headerThrough(ctx));
  return { ...agents.build(memberSpecOf({ ...header, messages: [] }), line), depth: line.length + 1 };
}

/** Reads another agent's stored header through the invocation's journal. */
function headerThrough(ctx: Shared): (id: string) => Promise<SessionHeader | null> {
  return (id) => ctx.objectClient<AgentObject>({ name: AGENT_OBJECT }, id).header();
}

/** `parentId` and the ids above it (its parent's parent, …), from their stored headers. */
async function lineOf(parentId: string | undefined, headerOf: (id: string) => Promise<SessionHeader | null>): Promise<string[]> {
  const chain: string[] = [];
  for (
    let id = parentId;
    id && !chain.includes(id) && chain.length <= MAX_AGENT_DEPTH;
    id = (await headerOf(id))?.parent_agent_id ?? undefined
  )
    chain.push(id);
  return chain;
}

/**
 * Waits, as long as it takes, for a person to decide each approval a paused turn asks (a
 * durable awakeable each, resolved by `resolve_approval` through any worker), and lets the turn go
 * on; settles with the turn's end.
 */
async function approvalsDecided(
  ctx: Exclusive,
  member: PoolMember,
  paused: TurnResult,
  relay: ReturnType<typeof relayTo>,
  steps: TurnSteps,
): Promise<TurnResult> {
  let result = paused;
  while (result.status === 'awaiting_approval') {
    const waiting = result.approvals.map((approval) => ({ approval, awakeable: ctx.awakeable<ApprovalDecision>() }));
    const approvals = waiting.map(({ approval }) => approvalReply(member.id, approval));
    ctx.set(
      PENDING,
      waiting.map(({ awakeable }, index) => ({ ...approvals[index], awakeable_id: awakeable.id })),
    );
    // The front end hears of the pause once the steps that led to it are acknowledged, after the approvals are stored, and once.
    await steps.acknowledged();
    await ctx.run('approvals published', () => relay.paused(approvals));
    let next: Promise<TurnResult> = Promise.resolve(result);
    for (const { approval, awakeable } of waiting) next = member.agent.resolveApproval(approval.approvalId, await awakeable.promise).result;
    result = await next;
    ctx.clear(PENDING);
  }
  return result;
}

/** The ids of this agent's parent, its parent's parent, …, from their stored headers. */
async function ancestry(ctx: Shared): Promise<string[]> {
  return lineOf((await ctx.get<SessionHeader>(HEADER))?.parent_agent_id ?? undefined, headerThrough(ctx));
}

/** Keeps a turn's content and answer, forgetting the oldest past {@link ENDED_TURNS_KEPT}: the state does not grow without bound. */
async function noteEnded(ctx: Exclusive, requestId: string, ended: EndedTurn): Promise<void> {
  const kept = [...((await ctx.get<string[]>(ENDED)) ?? []).filter((id) => id !== requestId), requestId];
  for (const oldest of kept.splice(0, Math.max(0, kept.length - ENDED_TURNS_KEPT))) ctx.clear(endedKey(oldest));
  ctx.set(endedKey(requestId), ended);
  ctx.set(ENDED, kept);
}

/** Whether an error is Restate's cancellation of the invocation. */
function isCancellation(error: unknown): boolean {
  return error instanceof restate.CancelledError || (error instanceof restate.TerminalError && error.code === 409);
}
