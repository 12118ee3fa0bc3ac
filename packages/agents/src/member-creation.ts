import type { AgentPermissions } from '@nexus/core';
import { ConfigError } from '@nexus/core';
import type { CallerIdentity } from '@nexus/registry';
import type { Agent } from './agent.js';
import type { AgentSettings } from './agent-settings.js';
import { emptyUsage } from './agent-usage.js';
import { type AgentGrant, decideGrant, type PermissionBase } from './child-permissions.js';
import type { MemberSpec, PoolMember } from './pool-member.js';
import type { Requester } from './requester-policy.js';
import { type ResolvedModel, resolveModel } from './resolve-model.js';
import type { MethodParams } from './rpc-params.js';
import { refuse } from './rpc-replies.js';

/**
 * The grant of the agent a `create_agent` makes, below `parent` when it has one (specs/agent-server.md §5);
 * a person's agent is theirs (its owner), within their ceiling, blocked paths and rules.
 */
export function grantOf(
  params: MethodParams<'create_agent'>,
  parent: PoolMember | undefined,
  base: PermissionBase,
  requester: Requester,
): Promise<AgentGrant> {
  return decideGrant(
    {
      preset: params.preset,
      cwd: params.cwd,
      allowedWritePaths: params.allowed_write_paths,
      disableTools: params.disable_tools,
      ...(requester.kind === 'user' ? { person: requester } : {}),
    },
    parent && { id: parent.id, grant: parent.grant, permissions: parent.permissions, depth: parent.depth },
    base,
  );
}

/** What the agent a `create_agent` makes is built from: no conversation yet, its parent's model unless it names one. */
export function createdSpec(
  id: string,
  createdAt: string,
  params: MethodParams<'create_agent'>,
  parent: PoolMember | undefined,
  grant: AgentGrant,
): MemberSpec {
  return {
    id,
    createdAt,
    parentId: parent?.id,
    grant,
    modelAlias: params.model ?? parent?.modelAlias,
    systemPrompt: params.system_prompt,
    messages: [],
    rememberedApprovals: [],
  };
}

/** Who an agent's tool calls are to the audit log: the agent with its `ancestry`, on behalf of its owner when a person owns it. */
export function callerOf(spec: MemberSpec, ancestry: readonly string[]): CallerIdentity {
  return { ...(spec.grant.owner === undefined ? {} : { tokenHolder: spec.grant.owner }), agentId: spec.id, ancestry };
}

/** The model an alias names (the default one when absent); an unknown alias is a `-32602` refusal. */
export function modelOf(settings: AgentSettings, alias: string | undefined, env: NodeJS.ProcessEnv | undefined): ResolvedModel {
  try {
    return resolveModel(settings, alias, env);
  } catch (error) {
    if (ConfigError.isInstance(error)) throw refuse(error.message);
    throw error;
  }
}

/** What a runtime assembled for an agent's spec. */
export interface AssembledMember {
  readonly depth: number;
  readonly permissions: AgentPermissions;
  readonly modelAlias: string;
  readonly agent: Agent;
}

/** A runtime's agent: its spec and what was assembled for it, no turns yet, its token usage as stored (none for a new one). */
export function newMember(spec: MemberSpec, assembled: AssembledMember): PoolMember {
  return {
    id: spec.id,
    createdAt: spec.createdAt,
    parentId: spec.parentId,
    grant: spec.grant,
    ...assembled,
    turns: new Map(),
    ended: new Map(),
    lastActionAt: new Date().toISOString(),
    usage: spec.usage ?? emptyUsage(),
    restoreWarnings: [],
  };
}
