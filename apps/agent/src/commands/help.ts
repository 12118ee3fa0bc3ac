import { type Command, defineCommand, UsageError } from '../command.js';
import { COMMON, CONFIGURATION, PERMISSIONS } from '../help-sections.js';

/** Width of the first column of the command list, where a longer usage takes a line of its own. */
const USAGE_WIDTH = 18;

function summaryLine({ usage, text }: Command['summary'][number]): string {
  const indent = ' '.repeat(USAGE_WIDTH + 4);
  const [first, ...more] = text.split('\n');
  const head = usage.length > USAGE_WIDTH ? `  ${usage}\n${indent}${first}` : `  ${usage.padEnd(USAGE_WIDTH)}  ${first}`;
  return [head, ...more.map((line) => `${indent}${line}`)].join('\n');
}

function mainHelp(commands: readonly Command[]): string {
  return `nexus — safe, well-described tools for LLM agents: serve them to any MCP client,
or run one from the shell.

Usage
  nexus <command> [options]

Commands
${commands.flatMap((command) => command.summary.map(summaryLine)).join('\n')}

${COMMON}
  -V, --version      Print the version

${PERMISSIONS}

${CONFIGURATION}

Environment
  XDG_CONFIG_HOME    Where your config directory is (default ~/.config)
  NEXUS_MCP_TOKEN    Bearer token for nexus mcp --http (default: random per run)
  NEXUS_API_KEY      Bearer token of the agent server, for nexus agents (default: the
                     server's token file in $XDG_STATE_HOME/nexus)

Exit status: 0 success, 1 a tool failed, the model provider failed or an unexpected
error, 2 bad usage or configuration, 130 interrupted.

Examples
  nexus tools
  nexus call read_file '{"path": "README.md"}'
  nexus run "Summarise README.md in three lines"
  nexus mcp --preset trusted
  nexus mcp --http 8808

Run \`nexus <command> --help\` for the options of one command.`;
}

/**
 * `nexus help [command]`, for `commands` and itself: the help of nexus (also `nexus`, `nexus
 * --help`), or of one command (also `nexus <command> --help`).
 */
export function helpCommand(commands: readonly Command[]): Command {
  const help: Command = defineCommand({
    name: 'help',
    summary: [{ usage: 'help [command]', text: 'Show help for a command' }],
    options: {},
    help: () => `Usage: nexus help [command]

Show help for nexus or one of its commands: ${commands.map((command) => command.name).join(', ')}.`,
    async run({ positionals: [topic] }, io) {
      const all = [...commands, help];
      const command = all.find((candidate) => candidate.name === topic);
      if (topic !== undefined && command === undefined)
        throw new UsageError(`No help for "${topic}"; commands are: ${all.map((candidate) => candidate.name).join(', ')}.`);
      io.stdout.write(`${command ? command.help({ cliPath: io.cliPath }) : mainHelp(all)}\n`);
      return 0;
    },
  });
  return help;
}
