import { InvalidParametersError } from './errors.js';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * The pattern of an agent id (specs/agent-server.md §6), as JSON Schema's `pattern` takes it: a
 * leading `.` marks a temporary agent (never saved). {@link isValidAgentId} also refuses `..` inside.
 */
export const AGENT_ID_PATTERN = '^\\.?[A-Za-z0-9][A-Za-z0-9_.-]{0,61}$';
const AGENT_ID = new RegExp(AGENT_ID_PATTERN);

/** Whether `name` is a valid tool name: 1–64 letters, digits, `_` or `-` (what OpenAI, Anthropic and MCP accept). */
export function isValidToolName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME.test(name);
}

/** Throws an {@link InvalidParametersError} unless `name` is a valid tool name. */
export function validateToolName(name: unknown): string {
  if (!isValidToolName(name)) {
    throw new InvalidParametersError(`Invalid tool name ${JSON.stringify(name)}: expected 1–64 letters, digits, "_" or "-".`, {
      parameter: 'name',
    });
  }
  return name;
}

/**
 * Whether `id` is a valid agent id: up to 62 letters, digits, `_`, `.`, `-`, starting with a letter or
 * digit after an optional `.` (a temporary agent), no `..`.
 */
export function isValidAgentId(id: unknown): id is string {
  return typeof id === 'string' && AGENT_ID.test(id) && !id.includes('..');
}

/** Throws an {@link InvalidParametersError} naming `agent_id` unless `id` is a valid agent id. */
export function validateAgentId(id: unknown): string {
  if (!isValidAgentId(id)) {
    throw new InvalidParametersError(
      `Invalid agent_id ${JSON.stringify(id)}: expected up to 62 letters, digits, "_", "." or "-", starting with a letter or digit (after one "." for a temporary agent), without "..".`,
      { parameter: 'agent_id' },
    );
  }
  return id;
}
