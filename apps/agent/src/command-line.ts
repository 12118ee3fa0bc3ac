import { type ParseArgsConfig, parseArgs } from 'node:util';
import { isPermissionLevel, PERMISSION_LEVELS } from '@nexus/core';
import { FAMILY_NAMES, type FamilyName, isFamilyName } from './families.js';
import type { CommonFlags } from './resolve-settings.js';

/** Bad command-line usage: the CLI prints the message on one line and exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The subcommands. */
export const COMMANDS = [
  'tools',
  'call',
  'run',
  'chat',
  'models',
  'skills',
  'mcp',
  'mcp-servers',
  'serve',
  'agents',
  'config',
  'help',
] as const;
export type CommandName = (typeof COMMANDS)[number];

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON_OPTIONS = {
  cwd: { type: 'string' },
  preset: { type: 'string' },
  allow: { type: 'string', multiple: true },
  block: { type: 'string', multiple: true },
  families: { type: 'string', multiple: true },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const satisfies Options;

const COMMAND_OPTIONS = {
  tools: { json: { type: 'boolean' }, format: { type: 'string' }, all: { type: 'boolean' } },
  call: { json: { type: 'boolean' } },
  skills: { json: { type: 'boolean' }, all: { type: 'boolean' }, user: { type: 'boolean' } },
  run: { model: { type: 'string' }, json: { type: 'boolean' } },
  chat: { model: { type: 'string' } },
  models: { json: { type: 'boolean' } },
  mcp: { http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
  'mcp-servers': { json: { type: 'boolean' } },
  serve: { port: { type: 'string' } },
  agents: {
    json: { type: 'boolean' },
    port: { type: 'string' },
    model: { type: 'string' },
    'write-path': { type: 'string', multiple: true },
    message: { type: 'string' },
  },
  config: {},
  help: {},
} as const satisfies Record<CommandName, Options>;

const ALL_OPTIONS = Object.assign({}, COMMON_OPTIONS, ...Object.values(COMMAND_OPTIONS)) as typeof COMMON_OPTIONS &
  (typeof COMMAND_OPTIONS)['tools'] &
  (typeof COMMAND_OPTIONS)['call'] &
  (typeof COMMAND_OPTIONS)['skills'] &
  (typeof COMMAND_OPTIONS)['run'] &
  (typeof COMMAND_OPTIONS)['mcp'] &
  (typeof COMMAND_OPTIONS)['agents'];

/** A parsed command line. */
export interface CommandLine {
  /** The subcommand; `undefined` for a bare `nexus`, `nexus --help` or `nexus --version`. */
  command: CommandName | undefined;
  /** Positional arguments after the subcommand. */
  positionals: string[];
  common: CommonFlags;
  help: boolean;
  version: boolean;
  /** Subcommand options. */
  json: boolean;
  all: boolean;
  format: string | undefined;
  http: boolean;
  port: string | undefined;
  host: string | undefined;
  /** `nexus skills new --user`: create the package in the user's skills folder. */
  user: boolean;
  /** `--model`: a model alias of the config file. */
  model: string | undefined;
  /** `nexus agents create --write-path` (repeatable): paths the new agent may write. */
  writePaths: string[];
  /** `nexus agents create --message`: the new agent's first message. */
  message: string | undefined;
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

function parseCommand(word: string | undefined): CommandName | undefined {
  if (word === undefined) return undefined;
  if (!(COMMANDS as readonly string[]).includes(word))
    throw new UsageError(`Unknown command "${word}"; expected one of: ${COMMANDS.join(', ')}.`);
  return word as CommandName;
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

/** Parses `nexus` arguments (without the node and script paths). Throws {@link UsageError}. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof ALL_OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: expandHttpPort(argv), options: ALL_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages carry a long hint after the first sentence.
    throw new UsageError(`${((error as Error).message.split(/\.\s/)[0] ?? '').replace(/\.$/, '')}.`);
  }
  const { values, positionals } = parsed;
  const [word, ...rest] = positionals;
  const command = parseCommand(word);
  const allowed: Options = { ...COMMON_OPTIONS, ...(command ? COMMAND_OPTIONS[command] : {}) };
  for (const name of Object.keys(values)) {
    if (!Object.hasOwn(allowed, name))
      throw new UsageError(`--${name} is not an option of ${command ? `\`nexus ${command}\`` : '`nexus`'}.`);
  }
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
  return {
    command,
    positionals: rest,
    common,
    help: values.help ?? false,
    version: values.version ?? false,
    json: values.json ?? false,
    all: values.all ?? false,
    format: values.format,
    http: values.http ?? false,
    port: values.port,
    host: values.host,
    user: values.user ?? false,
    model: values.model,
    writePaths: values['write-path'] ?? [],
    message: values.message,
  };
}
