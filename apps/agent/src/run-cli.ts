import { ConfigError, NexusError } from '@nexus/core';
import packageJson from '../package.json' with { type: 'json' };
import { COMMANDS, type CommandLine, type CommandName, parseCommandLine, UsageError } from './command-line.js';
import { helpText } from './help.js';
import type { Io } from './io.js';

type Command = (line: CommandLine, io: Io) => Promise<number>;

// Each command is loaded when it runs: `nexus call` need not load the MCP SDK.
const COMMAND_MODULES: Record<Exclude<CommandName, 'help'>, () => Promise<Command>> = {
  tools: () => import('./commands/tools.js').then((module) => module.toolsCommand),
  call: () => import('./commands/call.js').then((module) => module.callCommand),
  skills: () => import('./commands/skills.js').then((module) => module.skillsCommand),
  run: () => import('./commands/run.js').then((module) => module.runCommand),
  chat: () => import('./commands/chat.js').then((module) => module.chatCommand),
  models: () => import('./commands/models.js').then((module) => module.modelsCommand),
  serve: () => import('./commands/serve.js').then((module) => module.serveCommand),
  mcp: () => import('./commands/mcp.js').then((module) => module.mcpCommand),
  'mcp-servers': () => import('./commands/mcp-servers.js').then((module) => module.mcpServersCommand),
  agents: () => import('./commands/agents.js').then((module) => module.agentsCommand),
  config: () => import('./commands/config.js').then((module) => module.configCommand),
};

function helpTopic(line: CommandLine): CommandName | undefined {
  if (line.command !== 'help') return line.command;
  const [topic] = line.positionals;
  if (topic === undefined) return undefined;
  if (!(COMMANDS as readonly string[]).includes(topic))
    throw new UsageError(`No help for "${topic}"; commands are: ${COMMANDS.join(', ')}.`);
  return topic as CommandName;
}

/**
 * Runs the `nexus` command line and returns the exit status: 0 on success, 1 when a tool failed
 * or something unexpected happened, 2 on bad usage or configuration. Errors are one line on stderr.
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  try {
    const line = parseCommandLine(argv);
    if (line.version) {
      io.stdout.write(`${packageJson.version}\n`);
      return 0;
    }
    if (line.help || line.command === undefined || line.command === 'help') {
      io.stdout.write(`${helpText(helpTopic(line), io.cliPath)}\n`);
      return 0;
    }
    const command = await COMMAND_MODULES[line.command]();
    return await command(line, io);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
    if (error instanceof UsageError) {
      io.stderr.write(`nexus: ${message} See \`nexus --help\`.\n`);
      return 2;
    }
    if (ConfigError.isInstance(error)) {
      io.stderr.write(`nexus: ${message}\n`);
      return 2;
    }
    io.stderr.write(`nexus: ${NexusError.isInstance(error) ? '' : 'unexpected error: '}${message}\n`);
    return 1;
  }
}
