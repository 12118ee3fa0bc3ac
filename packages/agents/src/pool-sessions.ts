import type { ModelMessage } from 'ai';
import type { MemberSpec, PoolMember } from './pool-member.js';
import { SESSION_SCHEMA_VERSION, type Session } from './session-store.js';

/** A pool agent as its session keeps it (specs/agent-server.md §7, on disk as §9 says). */
export function sessionOf(member: PoolMember): Session {
  const context = member.agent.context();
  return {
    schema_version: SESSION_SCHEMA_VERSION,
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
    ...(member.grant.owner === undefined ? {} : { owner: member.grant.owner }),
    ...(member.grant.blockedPaths ? { blocked_paths: member.grant.blockedPaths } : {}),
    ...(member.grant.rules ? { rules: member.grant.rules } : {}),
    messages: member.agent.messages,
    token_usage: member.usage,
    turn: member.agent.turnState ?? null,
    remembered_approvals: member.agent.rememberedApprovals,
  };
}

/** What a saved agent is rebuilt from: its grant, model, prompt and conversation, as they were. */
export function memberSpecOf(session: Session): MemberSpec {
  return {
    id: session.agent_id,
    createdAt: session.created_at,
    parentId: session.parent_agent_id ?? undefined,
    grant: {
      preset: session.preset,
      cwd: session.cwd,
      writePaths: session.write_paths,
      disabledTools: session.disabled_tools,
      ...(session.owner === undefined ? {} : { owner: session.owner }),
      ...(session.blocked_paths ? { blockedPaths: session.blocked_paths } : {}),
      ...(session.rules ? { rules: session.rules } : {}),
    },
    modelAlias: session.model,
    systemPrompt: session.system_prompt,
    messages: session.messages,
    rememberedApprovals: session.remembered_approvals ?? [],
    usage: session.token_usage,
  };
}

/**
 * The conversation of a turn the server died in, made whole again: a tool call without a result
 * gets "interrupted: the server restarted" (specs/agent-server.md §8; or `why`), so the next turn is valid.
 */
export function closeInterruptedCalls(messages: readonly ModelMessage[], why = 'interrupted: the server restarted'): ModelMessage[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || typeof last.content === 'string') return [...messages];
  const open = last.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
  if (open.length === 0) return [...messages];
  return [
    ...messages,
    {
      role: 'tool',
      content: open.map((call) => ({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'error-text', value: `Error (cancelled): ${why}` },
      })),
    },
  ];
}
