import type { ParseArgsConfig } from 'node:util';
import type { Io } from './io.js';
import type { CommonFlags } from './resolve-settings.js';

/** Bad command-line usage: the CLI prints the message on one line and exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command's options, declared as node's `util.parseArgs` reads them. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

type OptionValue<Option> = Option extends { type: 'boolean' }
  ? Option extends { multiple: true }
    ? boolean[]
    : boolean
  : Option extends { multiple: true }
    ? string[]
    : string | undefined;

/** The values of declared options: a flag not given is `false`, a repeatable option not given `[]`. */
export type OptionValues<Options extends OptionsConfig> = string extends keyof Options
  ? { [name: string]: unknown } // any command's options, as the parser and the list hold them
  : { -readonly [Name in keyof Options]: OptionValue<Options[Name]> };

/** What a command runs with: its arguments, the options every command takes (`common`), and its own options. */
export type CommandLine<Options extends OptionsConfig = Record<never, never>> = {
  /** The command's name. */
  command: string;
  /** Positional arguments after the command's name. */
  positionals: string[];
  common: CommonFlags;
} & OptionValues<Options>;

/** What a help text may depend on. */
export interface HelpContext {
  /** Path of the running `cli.js`, for the client configuration snippet of `nexus mcp --help`. */
  cliPath: string;
}

/** A line of the command list in `nexus --help`: `usage` in the first column, `text` (lines may follow) in the second. */
export interface CommandSummary {
  usage: string;
  text: string;
}

/**
 * One `nexus` command, declared in its own module `commands/<name>.ts` with {@link defineCommand}
 * and listed in `COMMANDS` (`command-list.ts`): the parser, `nexus --help` and `nexus help` are
 * made from these.
 */
export interface CommandDefinition<Options extends OptionsConfig> {
  readonly name: string;
  /** Its lines in `nexus --help`. */
  readonly summary: readonly CommandSummary[];
  /** Its own options; the options every command takes come on top. */
  readonly options: Options;
  /** The text of `nexus <name> --help`. */
  help(context: HelpContext): string;
  /** Runs the command and returns the exit status; throws {@link UsageError} on bad usage. */
  run(line: CommandLine<Options>, io: Io): Promise<number>;
}

/** A command of the list, whatever its options. */
export type Command = CommandDefinition<OptionsConfig>;

/** Declares a command, typing its run function's options from its declaration. */
export function defineCommand<const Options extends OptionsConfig>(command: CommandDefinition<Options>): Command {
  // Safe: the parser gives a command only the values of the options it declares.
  return command as unknown as Command;
}

/** A `--port` value: an integer from 0 to 65535 (`undefined` when the option was not given). */
export function parsePort(port: string | undefined, option: string): number | undefined {
  if (port === undefined) return undefined;
  const value = Number(port);
  if (!/^\d+$/.test(port) || value > 65535) throw new UsageError(`Expected ${option} to be an integer from 0 to 65535, got "${port}".`);
  return value;
}

/** Refuses positional arguments for a command that takes none. */
export function expectNoArguments(line: CommandLine): void {
  if (line.positionals.length > 0) throw new UsageError(`\`nexus ${line.command}\` takes no arguments, got "${line.positionals[0]}".`);
}
