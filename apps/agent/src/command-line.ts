import { parseArgs } from 'node:util';
import { isPermissionLevel, PERMISSION_LEVELS } from '@nexus/core';
import { type Command, type CommandLine, type OptionsConfig, UsageError } from './command.js';
import { COMMANDS } from './command-list.js';
import { FAMILY_NAMES, type FamilyName, isFamilyName } from './families.js';
import type { CommonFlags } from './resolve-settings.js';

/** The options every command takes. */
const COMMON_OPTIONS = {
  cwd: { type: 'string' },
  preset: { type: 'string' },
  allow: { type: 'string', multiple: true },
  block: { type: 'string', multiple: true },
  families: { type: 'string', multiple: true },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const satisfies OptionsConfig;

// Every option of every command is read, so that an option given to the wrong command is named as such.
const ALL_OPTIONS: OptionsConfig = Object.assign({}, COMMON_OPTIONS, ...COMMANDS.map((command) => command.options));

/** A parsed command line. */
export interface ParsedCommandLine {
  /** The command; `undefined` for a bare `nexus`, `nexus --help` or `nexus --version`. */
  command: Command | undefined;
  /** What the command runs with: its positional arguments, the common options and its own. */
  line: CommandLine<OptionsConfig>;
  help: boolean;
  version: boolean;
}

/** `--http 8080` and `--http=8080` become `--http --port 8080`: parseArgs has no optional values. */
function expandHttpPort(argv: readonly string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    const inline = /^--http=(.*)$/.exec(argument);
    if (inline) result.push('--http', '--port', inline[1] as string);
    else if (argument === '--http' && /^\d+$/.test(argv[index + 1] ?? '')) result.push('--http', '--port', argv[++index] as string);
    else result.push(argument);
  }
  return result;
}

function parseFamilies(values: readonly string[] | undefined): FamilyName[] | undefined {
  if (!values) return undefined;
  const names = values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!isFamilyName(name)) throw new UsageError(`Unknown family "${name}" in --families; expected some of: ${FAMILY_NAMES.join(', ')}.`);
  }
  return names as FamilyName[];
}

function parseCommand(word: string | undefined): Command | undefined {
  if (word === undefined) return undefined;
  const command = COMMANDS.find((candidate) => candidate.name === word);
  if (!command)
    throw new UsageError(`Unknown command "${word}"; expected one of: ${COMMANDS.map((candidate) => candidate.name).join(', ')}.`);
  return command;
}

/** The values of a command's own options; a flag not given is `false`, a repeatable option `[]`. */
function ownValues(options: OptionsConfig, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(options).map(([name, option]) => [
      name,
      values[name] ?? (option.multiple ? [] : option.type === 'boolean' ? false : undefined),
    ]),
  );
}

/** The values of the options every command takes. */
type CommonValues = ReturnType<typeof parseArgs<{ options: typeof COMMON_OPTIONS; strict: true }>>['values'];

function commonFlags(values: CommonValues): CommonFlags {
  if (values.preset !== undefined && !isPermissionLevel(values.preset)) {
    throw new UsageError(`Unknown preset "${values.preset}"; expected one of: ${PERMISSION_LEVELS.join(', ')}.`);
  }
  const common: CommonFlags = {};
  if (values.cwd !== undefined) common.cwd = values.cwd;
  if (values.preset !== undefined) common.preset = values.preset;
  if (values.allow) common.allow = values.allow;
  if (values.block) common.block = values.block;
  const families = parseFamilies(values.families);
  if (families) common.families = families;
  if (values.config !== undefined) common.config = values.config;
  return common;
}

/** Parses `nexus` arguments (without the node and script paths). Throws {@link UsageError}. */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  let parsed: ReturnType<typeof parseArgs<{ options: OptionsConfig; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: expandHttpPort(argv), options: ALL_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages carry a long hint after the first sentence.
    throw new UsageError(`${((error as Error).message.split(/\.\s/)[0] ?? '').replace(/\.$/, '')}.`);
  }
  const { values, positionals } = parsed;
  const [word, ...rest] = positionals;
  const command = parseCommand(word);
  const allowed: OptionsConfig = { ...COMMON_OPTIONS, ...command?.options };
  for (const name of Object.keys(values)) {
    if (!Object.hasOwn(allowed, name))
      throw new UsageError(`--${name} is not an option of ${command ? `\`nexus ${command.name}\`` : '`nexus`'}.`);
  }
  const common = values as CommonValues;
  return {
    command,
    line: {
      command: command?.name ?? 'nexus',
      positionals: rest,
      common: commonFlags(common),
      ...ownValues(command?.options ?? {}, values),
    },
    help: common.help ?? false,
    version: common.version ?? false,
  };
}
