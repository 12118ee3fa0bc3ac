import { ConfigError, NexusError } from '@nexus/core';
import packageJson from '../package.json' with { type: 'json' };
import { UsageError } from './command.js';
import { parseCommandLine } from './command-line.js';
import { HELP_COMMAND } from './command-list.js';
import type { Io } from './io.js';

/**
 * Runs the `nexus` command line and returns the exit status: 0 on success, 1 when a tool failed
 * or something unexpected happened, 2 on bad usage or configuration. Errors are one line on stderr.
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  try {
    const { command, line, help, version } = parseCommandLine(argv);
    if (version) {
      io.stdout.write(`${packageJson.version}\n`);
      return 0;
    }
    if (command === undefined) return await HELP_COMMAND.run({ ...line, command: 'help', positionals: [] }, io);
    if (help && command !== HELP_COMMAND) return await HELP_COMMAND.run({ ...line, command: 'help', positionals: [command.name] }, io);
    return await command.run(line, io);
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
