import { createInterface, type Interface } from 'node:readline/promises';
import type { Agent } from '@nexus/agents';
import type { ConfirmFunction } from '@nexus/core';
import { type CommandLine, defineCommand, expectNoArguments } from '../command.js';
import { createAgent } from '../create-agent.js';
import { COMMON, PERMISSIONS } from '../help-sections.js';
import type { Io } from '../io.js';
import { INTERRUPTED_STATUS, printTurnEvents } from './run.js';

const CHAT_COMMANDS = '/status, /compact, /clear, /exit';

const OPTIONS = { model: { type: 'string' } } as const;

/** Confirmations asked inline, on the chat's own prompt (a second reader on stdin would steal lines). */
function askInChat(prompt: Interface): ConfirmFunction {
  return async ({ tool, action, detail }) => {
    const answer = await prompt.question(`${detail ? `${detail}\n` : ''}Allow ${tool} to ${action}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  };
}

/** Runs a `/command`; `false` to leave the chat. */
async function runChatCommand(command: string, agent: Agent, io: Io): Promise<boolean> {
  switch (command) {
    case '/exit':
      return false;
    case '/status':
      io.stdout.write(`${JSON.stringify({ tokens: await agent.tokens(), context: agent.context() }, null, 2)}\n`);
      break;
    case '/compact':
      io.stdout.write(`${JSON.stringify(await agent.compact({ force: true }))}\n`);
      break;
    case '/clear':
      await agent.clear();
      io.stdout.write('The conversation is cleared.\n');
      break;
    default:
      io.stderr.write(`Unknown command ${command}; the commands are ${CHAT_COMMANDS}.\n`);
  }
  return true;
}

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  expectNoArguments(line);
  // Loaded here: the model packages are large, and only `run` and `chat` need them.
  const { ProviderError } = await import('@nexus/agents');
  const terminal = io.stdin.isTTY === true;
  const prompt = createInterface({ input: io.stdin, ...(terminal ? { output: io.stdout, terminal: true } : { terminal: false }) });
  // Iterating from the start keeps lines that arrive while the agent is being set up.
  const lines = prompt[Symbol.asyncIterator]();
  let running: AbortController | undefined;
  let status = 0;
  const interrupt = () => {
    if (running && !running.signal.aborted) {
      running.abort();
      return;
    }
    status = INTERRUPTED_STATUS;
    prompt.close();
  };
  const unsubscribe = io.onInterrupt(interrupt);
  prompt.on('SIGINT', interrupt);
  try {
    await using session = await createAgent(line, io, terminal ? askInChat(prompt) : undefined);
    const { agent } = session;
    if (terminal) io.stdout.write(`nexus chat with ${agent.model.alias} (${agent.model.id} at ${agent.model.host}); ${CHAT_COMMANDS}\n`);
    prompt.setPrompt('> ');
    if (terminal) prompt.prompt();
    for await (const input of { [Symbol.asyncIterator]: () => lines }) {
      const message = input.trim();
      if (message.startsWith('/')) {
        if (!(await runChatCommand(message, agent, io))) break;
      } else if (message !== '') {
        running = new AbortController();
        try {
          const result = await agent.send(message, { signal: running.signal, onEvent: printTurnEvents(io, { text: true }) });
          io.stdout.write(result.cancelled ? '\n(cancelled)\n' : '\n');
        } catch (error) {
          if (!ProviderError.isInstance(error)) throw error;
          io.stderr.write(`nexus: ${error.message}\n`);
        } finally {
          running = undefined;
        }
      }
      if (terminal) prompt.prompt();
    }
  } finally {
    unsubscribe();
    prompt.close();
  }
  return status;
}

/**
 * `nexus chat [--model <alias>]`: an interactive conversation. Each line is a message (or a
 * `/command`); answers stream, tool calls show as they run. Ctrl-C cancels the running turn, and
 * at the prompt leaves (status 130). A provider failure is reported and the chat goes on.
 */
export const chatCommand = defineCommand({
  name: 'chat',
  summary: [{ usage: 'chat', text: 'Talk with an agent interactively' }],
  options: OPTIONS,
  help: () => `Usage: nexus chat [--model <alias>]

Talk with an agent: the answer streams as it comes, tool calls show as they run, and
confirmations are asked inline. Ctrl-C cancels the running turn; at the prompt it exits.
When stdin is not a terminal, each line is a message (for scripts).

Commands in the chat
  /status    Tokens and context of the conversation, as JSON
  /compact   Summarise older messages now
  /clear     Forget the conversation
  /exit      Leave (so does end of input)

Options
  --model <alias>    A model alias from the config's "models"

${COMMON}

${PERMISSIONS}`,
  run,
});
