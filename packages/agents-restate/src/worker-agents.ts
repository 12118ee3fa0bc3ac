import { existsSync } from 'node:fs';
import { type AgentSettings, assembleAgent, type TurnJournal } from '@nexus/agents';
import {
  callerOf,
  type MemberSpec,
  memberSpecOf,
  modelOf,
  newMember,
  type PermissionBase,
  type PoolMember,
  permissionsOf,
  refuse,
  type Session,
  type SessionHeader,
} from '@nexus/agents/kit';
import { ServiceContainer, type SkillFamily, type ToolPermission } from '@nexus/core';
import type { AgentServerConnection } from '@nexus/core/agent-server';

/** How a worker builds the agents it runs, as `AgentPoolOptions` say for the local runtime. */
export interface WorkerAgentOptions {
  /** Providers, models, the default model and agent defaults. */
  settings: AgentSettings;
  /** The skill families every agent's registry uses. */
  families: readonly SkillFamily[];
  /** The token holder's agents' `cwd` resolves against it: one path on storage every worker sees. */
  cwd: string;
  /** Where API keys are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Paths no agent may touch. */
  blockedPaths?: readonly string[];
  /** Per-tool settings for every agent. */
  tools?: Record<string, Partial<ToolPermission>>;
  /** Makes the service container each agent starts from. */
  services?: () => ServiceContainer;
}

/** A worker's copy of an agent and how much of the stored conversation it holds. */
interface WorkerAgent {
  readonly member: PoolMember;
  readonly stored: number;
  /** The conversation as stored when it was kept. */
  readonly messages: Session['messages'];
}

const runIt: TurnJournal = (_name, run) => run();

/**
 * The agents a worker runs, built from their stored state and kept while that state has not
 * moved on (another worker ran a turn: rebuilt). A turn's model steps and tool calls go through
 * the journal of the Restate invocation running it ({@link journalFor}).
 */
export class WorkerAgents {
  readonly #options: WorkerAgentOptions;
  readonly #agents = new Map<string, WorkerAgent>();
  readonly #journals = new Map<string, TurnJournal>();
  readonly #connectionFor: (id: string) => AgentServerConnection;
  /** Where every agent's permissions start from. */
  readonly base: PermissionBase;

  constructor(options: WorkerAgentOptions, connectionFor: (id: string) => AgentServerConnection) {
    this.#options = options;
    this.#connectionFor = connectionFor;
    this.base = { cwd: options.cwd, blockedPaths: options.blockedPaths ?? [], tools: options.tools ?? {} };
  }

  /** Sets the journal agent `id`'s turns run through (the running invocation's `ctx.run`). */
  journalFor(id: string, journal: TurnJournal): void {
    this.#journals.set(id, journal);
  }

  /**
   * The agent a stored header and conversation describe: this worker's copy when it is up to date,
   * else a new one (`messages` reads the conversation, `lineage` its parent's ids and those above).
   */
  async get(
    header: SessionHeader,
    count: number,
    messages: () => Promise<Session['messages']>,
    lineage: () => Promise<string[]>,
  ): Promise<PoolMember> {
    // specs/agent-server.md §10: every worker must see the agents' working directories (shared storage).
    if (!existsSync(header.cwd))
      throw refuse(
        `This worker cannot see agent "${header.agent_id}"'s working directory ${header.cwd}; put it on storage every worker shares.`,
      );
    const known = this.#agents.get(header.agent_id);
    if (known?.stored === count && known.member.agent.messages.length === count) return known.member;
    // A copy that went on with a turn (replayed after a suspension) is rebuilt from what was stored, without reading it again.
    const stored = known?.stored === count ? known.messages : await messages();
    const member = this.build(memberSpecOf({ ...header, messages: stored }), await lineage());
    this.remember(member, count);
    return member;
  }

  /** Keeps `member` as this worker's copy, holding `count` stored messages. */
  remember(member: PoolMember, count: number): void {
    const known = this.#agents.get(member.id);
    if (known && known.member !== member) known.member.agent.registry.close();
    this.#agents.set(member.id, { member, stored: count, messages: member.agent.messages });
  }

  /** Builds an agent from its spec (a `create_agent` call or its stored state); `ancestry` names its calls' caller. */
  build(spec: MemberSpec, ancestry: readonly string[]): PoolMember {
    const { settings, env, families, services = () => new ServiceContainer() } = this.#options;
    const model = modelOf(settings, spec.modelAlias, env);
    const permissions = permissionsOf(spec.grant, this.base);
    const agent = assembleAgent({
      settings,
      model,
      families,
      permissions,
      services: services().register('agentId', spec.id).register('agentServer', this.#connectionFor(spec.id)),
      ...(spec.systemPrompt === undefined ? {} : { systemPrompt: spec.systemPrompt }),
      messages: spec.messages,
      rememberedApprovals: spec.rememberedApprovals,
      journal: (name, run, step) => (this.#journals.get(spec.id) ?? runIt)(name, run, step),
      caller: callerOf(spec, ancestry),
    });
    return newMember(spec, { depth: 1, permissions, modelAlias: model.alias, agent });
  }

  /** Forgets an agent (destroyed). */
  forget(id: string): void {
    this.#agents.get(id)?.member.agent.registry.close();
    this.#agents.delete(id);
    this.#journals.delete(id);
  }

  /** Lets go of every agent's registry. */
  close(): void {
    for (const { member } of this.#agents.values()) member.agent.registry.close();
    this.#agents.clear();
  }
}
