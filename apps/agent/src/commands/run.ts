import { text } from 'node:stream/consumers';
import type { AgentEvent, TurnResult } from '@nexus/agents';
import { type CommandLine, defineCommand, UsageError } from '../command.js';
import { confirmOnTerminal } from '../confirm-on-terminal.js';
import { createAgent } from '../create-agent.js';
import { COMMON, PERMISSIONS } from '../help-sections.js';
import type { Io } from '../io.js';
import { describeToolActivity } from '../tool-activity.js';

/** Exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_STATUS = 130;

const OPTIONS = { model: { type: 'string' }, json: { type: 'boolean' } } as const;

async function readPrompt(line: CommandLine<typeof OPTIONS>, io: Io): Promise<string> {
  const prompt = line.positionals.join(' ');
  if (prompt === '-') return text(io.stdin);
  if (prompt.trim() === '') throw new UsageError('Missing the prompt: nexus run <prompt>, or nexus run - to read it from stdin.');
  return prompt;
}

/** The `--json` form of a turn: the seeds' field names. */
function turnJson(result: TurnResult) {
  return {
    content: result.content,
    request_id: result.requestId,
    halted_at_iteration_limit: result.haltedAtIterationLimit,
    usage: result.usage,
    tool_calls: result.toolCalls.map(({ name, arguments: args, success, kind }) => ({
      name,
      arguments: args,
      success,
      ...(kind ? { kind } : {}),
    })),
  };
}

/** Streams a turn for a person: answer text to stdout, one line per tool call and result to stderr. */
export function printTurnEvents(io: Io, options: { text: boolean }): (event: AgentEvent) => void {
  let atLineStart = true;
  const line = (message: string) => {
    io.stderr.write(`${atLineStart ? '' : '\n'}${message}\n`);
    atLineStart = true;
  };
  const warned = new Set<string>();
  return (event) => {
    if (event.type === 'text' && options.text) {
      io.stdout.write(event.text);
      atLineStart = event.text.endsWith('\n');
    } else if (event.type === 'warning' && !warned.has(event.message)) {
      warned.add(event.message);
      line(`warning: ${event.message}`);
    } else {
      const activity = describeToolActivity(event);
      if (activity) line(activity);
    }
  };
}

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  const prompt = await readPrompt(line, io);
  const canAsk = io.stdin.isTTY === true && line.positionals.join(' ') !== '-';
  await using session = await createAgent(line, io, canAsk ? confirmOnTerminal(io.stdin, io.stderr) : undefined);
  const { agent } = session;
  const controller = new AbortController();
  const unsubscribe = io.onInterrupt(() => controller.abort());
  let result: TurnResult;
  try {
    result = await agent.send(prompt, { signal: controller.signal, onEvent: printTurnEvents(io, { text: !line.json }) });
  } finally {
    unsubscribe();
  }
  if (!line.json && result.content !== '' && !result.content.endsWith('\n')) io.stdout.write('\n');
  if (result.cancelled) {
    io.stderr.write('nexus: cancelled\n');
    return INTERRUPTED_STATUS;
  }
  if (line.json) io.stdout.write(`${JSON.stringify(turnJson(result), null, 2)}\n`);
  if (result.haltedAtIterationLimit) {
    io.stderr.write(
      `nexus: warning: the turn stopped at its limit of ${agent.maxToolIterations} model calls (agent.maxToolIterations); the last tool calls were not run.\n`,
    );
  }
  return 0;
}

/**
 * `nexus run [--model <alias>] [--json] <prompt | ->`: one agent turn with the tools the policy
 * enables. Exit status 0 on an answer, 1 when the provider fails, 2 on bad usage or configuration,
 * 130 when interrupted (the turn is cancelled, its tools stopped).
 */
export const runCommand = defineCommand({
  name: 'run',
  summary: [{ usage: 'run <prompt | ->', text: 'Run one agent turn with the enabled tools, answer on stdout' }],
  options: OPTIONS,
  help: () => `Usage: nexus run [--model <alias>] [--json] <prompt | ->

Run one agent turn: the model (default: the config's defaultModel) gets the prompt
(\`-\`: read from stdin) and the tools these permissions enable; every tool call goes
through the same policy as \`nexus call\`. The answer streams to stdout; each tool call
and its result is one line on stderr:
  → read_file path=a.txt
  ✓ read_file 12 lines
  ✗ write_file forbidden: …

Exit status: 0 on an answer (also when the turn stopped at agent.maxToolIterations,
with a warning), 1 when the model provider failed, 2 on bad usage or configuration
(unknown alias, the key's variable unset), 130 on Ctrl-C (the turn is cancelled and
every command it started is stopped).
Confirmations are asked on the terminal; when stdin is not a terminal they are refused.

Options
  --model <alias>    A model alias from the config's "models"
  --json             Print { content, request_id, halted_at_iteration_limit, usage,
                     tool_calls: [{ name, arguments, success, kind }] } instead

${COMMON}

${PERMISSIONS}`,
  run,
});
