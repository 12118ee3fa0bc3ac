import { formatSchemaIssues, isValidAgentId, PERMISSION_LEVELS, type PermissionLevel } from '@nexus/core';
import { AgentRpcError, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import { z } from 'zod';

/** A permission level, as sessions and `create_agent` carry it. */
export const PERMISSION_LEVEL_SCHEMA = z.enum(PERMISSION_LEVELS as [PermissionLevel, ...PermissionLevel[]]);

const agentId = z.string().refine(isValidAgentId, {
  message:
    'Expected an agent id: up to 62 letters, digits, "_", "." or "-", starting with a letter or digit (after one "." for a temporary agent)',
});
const nonBlank = z.string().refine((text) => text.trim() !== '', { message: 'Must not be blank' });
/** A request id: a non-empty string or an integer (never a boolean). */
const requestId = z.union([z.string().min(1), z.int()]);
const none = z.strictObject({});

/** The longest `wait_for` waits (10 minutes). */
export const MAX_WAIT_MS = 600_000;

/** The params of every method of specs/agent-server.md §3; unknown params are refused. */
export const METHOD_PARAMS = {
  create_agent: z.strictObject({
    agent_id: agentId.optional(),
    system_prompt: z.string().optional(),
    preset: PERMISSION_LEVEL_SCHEMA.optional(),
    disable_tools: z.array(z.string()).optional(),
    parent_agent_id: agentId.optional(),
    cwd: z.string().min(1).optional(),
    allowed_write_paths: z.array(z.string().min(1)).optional(),
    model: z.string().min(1).max(128).optional(),
    initial_message: nonBlank.optional(),
    wait_for_initial_response: z.boolean().optional(),
  }),
  destroy_agent: z.strictObject({ agent_id: agentId }),
  list_agents: none,
  shutdown_server: none,
  send: z.strictObject({
    content: nonBlank,
    request_id: requestId.optional(),
    source: z.string().optional(),
    source_agent_id: agentId.optional(),
    stream: z.boolean().optional(),
    confirm: z.enum(['deny', 'allow']).optional(),
  }),
  cancel: z.strictObject({ request_id: requestId }),
  get_tokens: none,
  get_context: none,
  get_messages: z.strictObject({ offset: z.int().min(0).optional(), limit: z.int().min(1).max(2000).optional() }),
  compact: z.strictObject({ force: z.boolean().optional() }),
  shutdown: none,
  list_approvals: z.strictObject({ agent_id: agentId.optional() }),
  resolve_approval: z.strictObject({
    approval_id: z.string().min(1).max(128),
    decision: z.enum(['approve', 'deny']),
    remember: z.boolean().optional(),
    note: z.string().max(2000).optional(),
  }),
  wait_for: z.strictObject({ request_id: requestId, timeout_ms: z.int().min(0).max(MAX_WAIT_MS).optional() }),
  list_tools: z.strictObject({ preset: PERMISSION_LEVEL_SCHEMA.optional() }),
  run_tool: z.strictObject({
    preset: PERMISSION_LEVEL_SCHEMA.optional(),
    name: z.string().min(1).max(128),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
} as const;

/** A method name. */
export type MethodName = keyof typeof METHOD_PARAMS;
/** The params of a method, as validated. */
export type MethodParams<M extends MethodName> = z.infer<(typeof METHOD_PARAMS)[M]>;

/** Methods of the server (`POST /` or `/rpc`); the rest are an agent's (`POST /agent/{id}`), but for those in {@link EVERYWHERE_METHODS}. */
export const GLOBAL_METHODS: ReadonlySet<MethodName> = new Set([
  'create_agent',
  'destroy_agent',
  'list_agents',
  'shutdown_server',
  'list_tools',
  'run_tool',
]);
/** Methods of both the server and each agent. */
export const EVERYWHERE_METHODS: ReadonlySet<MethodName> = new Set(['list_approvals']);

/** Whether `name` is a method of the agent server. */
export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHOD_PARAMS, name);
}

/** Validates a method's params; a `-32602` error names every bad or unknown param. */
export function parseParams<M extends MethodName>(method: M, params: unknown): MethodParams<M> {
  return checkParams<unknown>(method, METHOD_PARAMS[method], params) as MethodParams<M>;
}

/** Validates the params of `method` (one of the server's own, or a runtime's) against `schema`, as {@link parseParams} does. */
export function checkParams<T>(method: string, schema: z.ZodType<T>, params: unknown): T {
  const result = schema.safeParse(params ?? {});
  if (!result.success) {
    throw new AgentRpcError(`Invalid params for ${method}: ${formatSchemaIssues(result.error.issues)}.`, {
      rpcCode: RPC_ERROR_CODES.invalidParams,
    });
  }
  return result.data;
}

/**
 * The method a call names, checked against where it is called (`agentId` absent: `POST /`): a
 * `-32601` refusal for an unknown method or one called in the wrong place.
 */
export function methodAt(method: string, agentId: string | undefined): MethodName {
  const notFound = (message: string) => new AgentRpcError(message, { rpcCode: RPC_ERROR_CODES.methodNotFound });
  if (!isMethodName(method)) throw notFound(`Method not found: ${method}.`);
  if (!EVERYWHERE_METHODS.has(method) && GLOBAL_METHODS.has(method) !== (agentId === undefined))
    throw notFound(`Method not found: ${method} is called on ${agentId === undefined ? 'POST /agent/<id>' : 'POST / (or /rpc)'}.`);
  return method;
}
