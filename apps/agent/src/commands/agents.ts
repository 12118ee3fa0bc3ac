import { resolve } from 'node:path';
import { isValidAgentId } from '@nexus/core';
import { type AgentServerConnection, DEFAULT_AGENT_SERVER_PORT } from '@nexus/core/agent-server';
import { type CommandLine, defineCommand, parsePort, UsageError } from '../command.js';
import { formatTable } from '../format-table.js';
import type { Io } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';

const USAGE =
  'nexus agents [--port N] list | create <id> [--preset --cwd --write-path --model --message] | send <id> <text> | status <id> | cancel <id> <request_id> | approvals [<id>] | approve <id> <approval_id> [--remember --note] | deny <id> <approval_id> [--note] | destroy <id> | shutdown';

const OPTIONS = {
  json: { type: 'boolean' },
  port: { type: 'string' },
  model: { type: 'string' },
  'write-path': { type: 'string', multiple: true },
  message: { type: 'string' },
  remember: { type: 'boolean' },
  note: { type: 'string' },
} as const;
type AgentsLine = CommandLine<typeof OPTIONS>;

type Result = Record<string, unknown>;

/** One action of `nexus agents`: its operands (`[<x>]` optional), the call, and how its result reads. */
interface Action {
  operands: readonly string[];
  call(server: AgentServerConnection, operands: string[], line: AgentsLine, io: Io): Promise<unknown>;
  /** The result in a line or a table. */
  describe(result: Result, operands: string[]): string;
  /** Whether the result means the action did not happen (exit status 1). */
  failed?(result: Result): boolean;
  /** A line for stderr that the reader should not miss. */
  warning?(result: Result, operands: string[]): string | undefined;
}

function createParams([id]: string[], line: AgentsLine, io: Io): Result {
  const { preset, cwd } = line.common;
  if (preset === 'yolo') throw new UsageError('An agent server creates trusted or sandboxed agents only, not yolo.');
  return {
    agent_id: id,
    ...(preset === undefined ? {} : { preset }),
    ...(cwd === undefined ? {} : { cwd: resolve(io.cwd, cwd) }),
    ...(line['write-path'].length === 0 ? {} : { allowed_write_paths: line['write-path'].map((path) => resolve(io.cwd, path)) }),
    ...(line.model === undefined ? {} : { model: line.model }),
    ...(line.message === undefined ? {} : { initial_message: line.message }),
  };
}

/** The options only `create` takes, by name, when given. */
function createOptionsGiven(line: AgentsLine): string[] {
  const given = {
    preset: line.common.preset,
    cwd: line.common.cwd,
    'write-path': line['write-path'][0],
    model: line.model,
    message: line.message,
  };
  return Object.entries(given).flatMap(([option, value]) => (value === undefined ? [] : [option]));
}

function describeAgents({ agents }: Result): string {
  const rows = (agents as Result[]).map((agent) =>
    [agent.agent_id, agent.permission_level, agent.parent_agent_id ?? '-', agent.message_count, agent.model ?? '-', agent.cwd].map(String),
  );
  return rows.length === 0 ? 'No agents.' : formatTable(['AGENT', 'LEVEL', 'PARENT', 'MESSAGES', 'MODEL', 'CWD'], rows);
}

function describeApprovals({ approvals }: Result): string {
  const rows = (approvals as Result[]).map((approval) =>
    [approval.approval_id, approval.agent_id, approval.request_id, approval.tool, approval.question].map(String),
  );
  return rows.length === 0 ? 'No approvals waiting.' : formatTable(['APPROVAL', 'AGENT', 'REQUEST', 'TOOL', 'QUESTION'], rows);
}

/** A send that paused: what it waits on, and how to decide it. */
function describePause(result: Result, id: string): string {
  const [first] = result.approvals as Result[];
  return [
    `The turn ${result.request_id} of agent "${id}" waits for approval:`,
    describeApprovals(result),
    `Decide with \`nexus agents approve ${id} ${first?.approval_id}\` or \`nexus agents deny ${id} ${first?.approval_id} --note <why>\`.`,
  ].join('\n');
}

function resolveParams([, approvalId]: string[], line: AgentsLine, decision: 'approve' | 'deny'): Result {
  return {
    approval_id: approvalId,
    decision,
    ...(line.remember ? { remember: true } : {}),
    ...(line.note === undefined ? {} : { note: line.note }),
  };
}

function describeResolution(result: Result, [id, approvalId]: string[]): string {
  if (result.status === 'stale')
    return `Approval ${approvalId} of agent "${id}" is stale: the agent's policy or the tool's package changed since it was asked, so the call was not run; the turn ${result.request_id} goes on.`;
  return `${result.status === 'approved' ? 'Approved' : 'Denied'} ${approvalId} of agent "${id}"; the turn ${result.request_id} goes on.`;
}

function describeStatus({ tokens, context }: Result, [id]: string[]): string {
  const { total, budget, remaining } = tokens as Result;
  const { message_count, last_iteration_count, max_tool_iterations, halted_at_iteration_limit } = context as Result;
  const halted = halted_at_iteration_limit === true ? ', halted at the iteration limit' : '';
  return `Agent "${id}": ${message_count} messages, ${total} of ${budget} tokens (${remaining} left), last turn ${last_iteration_count} of ${max_tool_iterations} tool iterations${halted}.`;
}

const ACTIONS: Record<string, Action> = {
  list: { operands: [], call: (server) => server.call('list_agents', {}), describe: describeAgents },
  create: {
    operands: ['<id>'],
    call: (server, operands, line, io) => server.call('create_agent', createParams(operands, line, io)),
    describe(result) {
      const queued = result.initial_request_id === undefined ? '' : `; its first message is queued as request ${result.initial_request_id}`;
      return `Created agent "${result.agent_id}" (${result.url})${queued}.`;
    },
  },
  send: {
    operands: ['<id>', '<text>'],
    call: (server, [id, text]) => server.call('send', { content: text }, id),
    describe: (result, [id]) =>
      result.status === 'awaiting_approval'
        ? describePause(result, id as string)
        : result.cancelled === true
          ? `The turn ${result.request_id} of agent "${id}" was cancelled.`
          : String(result.content),
    failed: (result) => result.cancelled === true,
    warning: (result, [id]) =>
      result.halted_at_iteration_limit === true
        ? `agent "${id}" stopped at its tool-iteration limit; the answer may be unfinished (send it another message to continue).`
        : undefined,
  },
  status: {
    operands: ['<id>'],
    async call(server, [id]) {
      const [tokens, context] = await Promise.all([server.call('get_tokens', {}, id), server.call('get_context', {}, id)]);
      return { tokens, context };
    },
    describe: describeStatus,
  },
  cancel: {
    operands: ['<id>', '<request_id>'],
    call: (server, [id, requestId]) => server.call('cancel', { request_id: requestId }, id),
    describe: (result, [id, requestId]) =>
      result.cancelled === true
        ? `Cancelled request ${requestId} of agent "${id}".`
        : `Request ${requestId} of agent "${id}" is neither running nor queued (${result.reason}).`,
    failed: (result) => result.cancelled !== true,
  },
  approvals: {
    operands: ['[<id>]'],
    call: (server, [id]) => (id === undefined ? server.call('list_approvals', {}) : server.call('list_approvals', {}, id)),
    describe: describeApprovals,
  },
  approve: {
    operands: ['<id>', '<approval_id>'],
    call: (server, operands, line) => server.call('resolve_approval', resolveParams(operands, line, 'approve'), operands[0]),
    describe: describeResolution,
    failed: (result) => result.status === 'stale',
  },
  deny: {
    operands: ['<id>', '<approval_id>'],
    call: (server, operands, line) => server.call('resolve_approval', resolveParams(operands, line, 'deny'), operands[0]),
    describe: describeResolution,
  },
  destroy: {
    operands: ['<id>'],
    call: (server, [id]) => server.call('destroy_agent', { agent_id: id }),
    describe: (_result, [id]) => `Destroyed agent "${id}".`,
  },
  shutdown: {
    operands: [],
    call: (server) => server.call('shutdown_server', {}),
    describe: (result) => String(result.message ?? 'The agent server is shutting down.'),
  },
};

/** The operands of an action, the agent id checked; a `<text>` at the end takes every word left. */
function operandsOf(name: string, { operands }: Action, given: string[]): string[] {
  const usage = `nexus agents ${[name, ...operands].join(' ')}`;
  const takesRest = operands.at(-1) === '<text>';
  const words =
    takesRest && given.length > operands.length
      ? [...given.slice(0, operands.length - 1), given.slice(operands.length - 1).join(' ')]
      : given;
  const required = operands.filter((operand) => !operand.startsWith('[')).length;
  if (words.length < required) throw new UsageError(`Missing ${operands[words.length]}: ${usage}.`);
  if (words.length > operands.length) throw new UsageError(`Unexpected argument "${words[operands.length]}": ${usage}.`);
  const [id] = words;
  if (id !== undefined && /^\[?<id>\]?$/.test(operands[0] ?? '') && !isValidAgentId(id)) {
    throw new UsageError(
      `Invalid agent id "${id}": up to 62 letters, digits, "_", "." or "-", starting with a letter or digit (after one "." for a temporary agent).`,
    );
  }
  if (takesRest && (words.at(-1) ?? '').trim() === '') throw new UsageError(`The message is empty: ${usage}.`);
  return words;
}

async function run(line: AgentsLine, io: Io): Promise<number> {
  const [name, ...given] = line.positionals;
  const action = name !== undefined && Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (name === undefined || action === undefined) throw new UsageError(`Expected one of ${Object.keys(ACTIONS).join(', ')}: ${USAGE}.`);
  const misplaced = name === 'create' ? undefined : createOptionsGiven(line)[0];
  if (misplaced) throw new UsageError(`--${misplaced} is an option of \`nexus agents create\` only.`);
  if (line.remember && name !== 'approve') throw new UsageError('--remember is an option of `nexus agents approve` only.');
  if (line.note !== undefined && name !== 'approve' && name !== 'deny')
    throw new UsageError('--note is an option of `nexus agents approve` and `nexus agents deny` only.');
  const operands = operandsOf(name, action, given);
  const port = parsePort(line.port, '--port') ?? (await resolveSettings(line.common, io)).servePort ?? DEFAULT_AGENT_SERVER_PORT;
  if (port === 0) throw new UsageError('--port 0 names no server: give the port `nexus serve` printed.');
  const { connectToAgentServer } = await import('@nexus/skills-agents');
  const server = connectToAgentServer({ port, env: io.env });
  const result = (await action.call(server, operands, line, io)) as Result;
  const warning = action.warning?.(result, operands);
  if (warning) io.stderr.write(`nexus: warning: ${warning}\n`);
  io.stdout.write(`${line.json ? JSON.stringify(result, null, 2) : action.describe(result, operands)}\n`);
  return action.failed?.(result) ? 1 : 0;
}

/**
 * `nexus agents …`: a client of the agent server (`nexus serve`) on 127.0.0.1 — list, create, send
 * to, read the status of, cancel a turn of and destroy agents, or shut the server down. The
 * method's result is printed as JSON with `--json`, in a short human form otherwise. The token
 * comes from `NEXUS_API_KEY`, else the server's token file.
 */
export const agentsCommand = defineCommand({
  name: 'agents',
  summary: [
    {
      usage: 'agents <action>',
      text: 'Talk to an agent server: list, create, send, status, cancel,\napprovals, approve, deny, destroy, shutdown',
    },
  ],
  options: OPTIONS,
  help: () => `Usage: nexus agents [--port <n>] <action> [arguments] [--json]

A client of the agent server (nexus serve) on 127.0.0.1: each action is one JSON-RPC call.

Actions
  list                        The server's agents: id, level, parent, messages, model, cwd
  create <id> [options]       Create an agent (trusted or sandboxed, default sandboxed)
  send <id> <text>            Send a message and print the agent's answer (the rest of the
                              words are the text)
  status <id>                 Tokens and context: { tokens, context } with --json
  cancel <id> <request_id>    Cancel a running, queued or paused turn (exit 1 when none was)
  approvals [<id>]            The calls waiting for a person's approval: every agent's, or one's
  approve <id> <approval_id>  Run the call that waits, and let its turn go on (exit 1 when the
                              approval was stale: the policy or the package changed)
  deny <id> <approval_id>     Refuse it: the model is told who denied it and why (--note)
  destroy <id>                Destroy an agent and its saved session
  shutdown                    Stop the server and every agent

Options
  --port <n>         The server's port (default 8765)
  --json             Print the method's result as JSON
  create only:
  --preset <name>    trusted or sandboxed (default sandboxed)
  --cwd <dir>        The agent's working directory (default: the server's)
  --write-path <p>   A path the agent may write (repeatable); a sandboxed agent without
                     any writes nothing
  --model <alias>    A model alias of the server's config
  --message <text>   A first message, queued (its request id is printed)
  Relative paths are relative to the current directory.
  approve and deny:
  --note <text>      Why: told to the model with a denial
  --remember         (approve) Approve later calls of the same tool with the same arguments
                     for the agent's lifetime

A turn whose call needs confirmation waits for a person: send prints the approvals and
exits 0; the turn goes on by itself once each is approved or denied.

The token: NEXUS_API_KEY when set, else the file the server wrote,
$XDG_STATE_HOME/nexus/rpc-<port>.token (default ~/.local/state/nexus), which must be
readable by you only (chmod 600). It is sent to 127.0.0.1 only.

Exit status: 0 success, 1 the server refused or failed (or is not running), a send was
cancelled, a cancel found nothing or an approval was stale, 2 bad usage.

Examples
  nexus agents create worker --cwd src --write-path src/out --message "List the TODOs"
  nexus agents send worker "Now fix the first one"
  nexus agents status worker --json
  nexus agents approvals
  nexus agents deny worker ap-1b2c… --note "not on main"
  nexus agents destroy worker`,
  run,
});
