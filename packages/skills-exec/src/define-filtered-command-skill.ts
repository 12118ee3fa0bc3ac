import {
  type ConfirmFunction,
  defineSkill,
  InvalidParametersError,
  type PermissionLevel,
  type ServiceContainer,
  type SkillMetadata,
  type SkillSpec,
  ToolResult,
} from '@nexus/core';
import {
  DEFAULT_TIMEOUT_SECONDS,
  type RunResult,
  resolveWorkingDirectory,
  runProcess,
  splitCommand,
  toolResultFromRun,
} from '@nexus/process';
import { requireString } from './define-execution-skill.js';

/** The least a filtered skill's parser finds in a command line: its subcommand. */
export interface ParsedCommand {
  /** The subcommand (`status` in `git -C x status -s`), when there is one. */
  readonly subcommand: string | undefined;
}

/** A call of a filtered program: its arguments and their parsed form (parsed once per call). */
export interface CommandInvocation<Parsed extends ParsedCommand = ParsedCommand> {
  /** Arguments after the program name. */
  readonly argv: readonly string[];
  /** What the skill's `parse` hook made of `argv`. */
  readonly parsed: Parsed;
}

/** A command refused at `trusted` (and below), with the reason the LLM is told. */
export interface BlockedPattern<Parsed extends ParsedCommand = ParsedCommand> {
  /** A RegExp tested against the arguments joined by single spaces, or a predicate over the invocation. */
  readonly pattern: RegExp | ((invocation: CommandInvocation<Parsed>) => boolean);
  readonly reason: string;
}

/** Seed 000 §FilteredCommandSkill: what each permission level may run. */
export interface CommandFilter<Parsed extends ParsedCommand = ParsedCommand> {
  /** Subcommands allowed at `sandboxed`, or a predicate deciding it (e.g. `branch` only when it lists). */
  readonly readOnlyCommands: readonly string[] | ((invocation: CommandInvocation<Parsed>) => boolean);
  /** Refused at `trusted` and `sandboxed`; `yolo` runs everything. */
  readonly blockedPatterns: readonly BlockedPattern<Parsed>[];
}

/** Whether the filter counts an invocation as read-only. */
export function isReadOnlyInvocation<Parsed extends ParsedCommand>(
  filter: CommandFilter<Parsed>,
  invocation: CommandInvocation<Parsed>,
): boolean {
  const { readOnlyCommands } = filter;
  if (typeof readOnlyCommands === 'function') return readOnlyCommands(invocation);
  const { subcommand } = invocation.parsed;
  return subcommand !== undefined && readOnlyCommands.includes(subcommand);
}

/**
 * Why `level` may not run `invocation`, or `undefined` when it may: `yolo` runs everything,
 * `trusted` everything but the blocked patterns, `sandboxed` only read-only commands that no
 * blocked pattern matches. `readOnly`: the filter's verdict when the caller has it already.
 */
export function findCommandRefusal<Parsed extends ParsedCommand>(
  filter: CommandFilter<Parsed>,
  level: PermissionLevel,
  invocation: CommandInvocation<Parsed>,
  readOnly?: boolean,
): string | undefined {
  if (level === 'yolo') return undefined;
  const line = invocation.argv.join(' ');
  for (const { pattern, reason } of filter.blockedPatterns) {
    if (typeof pattern === 'function' ? pattern(invocation) : pattern.test(line)) return `\`${line}\` is blocked below yolo: ${reason}`;
  }
  if (level === 'sandboxed' && !(readOnly ?? isReadOnlyInvocation(filter, invocation))) {
    const allowed = Array.isArray(filter.readOnlyCommands) ? ` (${filter.readOnlyCommands.join(', ')})` : '';
    return `\`${line}\` is not a read-only command; only read-only commands${allowed} run at the sandboxed level.`;
  }
  return undefined;
}

/** What a filtered skill's `prepare` and `present` hooks see. */
export interface FilteredCommandContext<Parsed extends ParsedCommand = ParsedCommand> {
  readonly invocation: CommandInvocation<Parsed>;
  /** The agent's level; `sandboxed` when no policy is registered. */
  readonly level: PermissionLevel;
  readonly readOnly: boolean;
  /** The validated working directory. */
  readonly cwd: string;
  readonly services: ServiceContainer;
  readonly signal: AbortSignal | undefined;
  /** Who to ask for this call, for `services.confirm(request, confirm)` and `authorizePath`. */
  readonly confirm: ConfirmFunction | undefined;
}

/** The arguments and extra environment a filtered skill finally runs its program with. */
export interface PreparedCommand {
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
}

/** The arguments of a filtered skill, as the LLM sends them. */
export interface FilteredCommandArguments {
  /** The program's arguments, split like a POSIX shell splits words (a leading program name is dropped). */
  command: string;
  /** Working directory (default: the agent's). */
  cwd?: string;
}

/** What {@link defineFilteredCommandSkill} takes; `title` and `outputSchema` become the skill's metadata as they are. */
export interface FilteredCommandSkillDefinition<Parsed extends ParsedCommand = ParsedCommand>
  extends Pick<SkillMetadata, 'title' | 'outputSchema'> {
  name: string;
  /** Written for an LLM. */
  description: string;
  /** The program run, e.g. `git`. A leading program name in `command` is dropped. */
  program: string;
  /**
   * Parses the arguments, exactly once per call; the filter, `prepare` and `present` get the result
   * as `invocation.parsed`. Needed when the hooks want more than the subcommand (default: the
   * subcommand is the first argument not starting with `-`).
   */
  parse?(argv: readonly string[]): Parsed;
  filter: CommandFilter<Parsed>;
  /** Checks and rewrites the arguments (hardening, sandbox checks) after the filter allowed them. */
  prepare?(context: FilteredCommandContext<Parsed>): PreparedCommand | Promise<PreparedCommand>;
  /** Turns the run into the result (default: output text plus the run in `data`). */
  present?(result: RunResult, context: FilteredCommandContext<Parsed>): ToolResult;
  /** Time limit in seconds (default 30). */
  timeoutSeconds?: number;
  /** Description of the `command` parameter. */
  commandDescription?: string;
}

function parseSubcommand(argv: readonly string[]): ParsedCommand {
  return { subcommand: argv.find((word) => !word.startsWith('-')) };
}

/**
 * Defines a skill that runs one program whose subcommands are filtered by permission level
 * (seed 000 §FilteredCommandSkill): `command` is split without a shell and parsed once, checked
 * against the {@link CommandFilter}, the `cwd` is validated against the sandbox (for writing when
 * the command is not read-only), and the program runs through the process runner. Offered at
 * every level. A definition whose hooks need more than the subcommand supplies `parse`.
 */
export function defineFilteredCommandSkill<Parsed extends ParsedCommand>(
  definition: FilteredCommandSkillDefinition<Parsed> & { parse(argv: readonly string[]): Parsed },
): SkillSpec;
export function defineFilteredCommandSkill(definition: FilteredCommandSkillDefinition): SkillSpec;
export function defineFilteredCommandSkill<Parsed extends ParsedCommand>(definition: FilteredCommandSkillDefinition<Parsed>): SkillSpec {
  const {
    name,
    description,
    program,
    // Without `parse` the overloads make `Parsed` the plain ParsedCommand.
    parse = parseSubcommand as (argv: readonly string[]) => Parsed,
    filter,
    prepare,
    present,
    timeoutSeconds = DEFAULT_TIMEOUT_SECONDS,
    title,
    outputSchema,
  } = definition;
  return defineSkill<FilteredCommandArguments>({
    name,
    ...(title === undefined ? {} : { title }),
    description,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    parameters: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          minLength: 1,
          description: definition.commandDescription ?? `Arguments for ${program}, e.g. \`--version\`.`,
        },
        cwd: {
          type: 'string',
          description: "Working directory (default: the agent's working directory); must be inside the allowed paths.",
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    readOnly: false,
    destructive: true,
    minimumLevel: 'sandboxed',
    create:
      (services) =>
      async (args, { signal, confirm }) => {
        const words = splitCommand(requireString(args, 'command'), { hint: `Give only the ${program} arguments.` });
        const argv = words[0] === program ? words.slice(1) : words;
        if (argv.length === 0) throw new InvalidParametersError(`\`command\` holds no arguments for ${program}.`, { parameter: 'command' });
        const invocation: CommandInvocation<Parsed> = { argv, parsed: parse(argv) };
        const level = services.getPermissionLevel() ?? 'sandboxed';
        const readOnly = isReadOnlyInvocation(filter, invocation);
        const refusal = findCommandRefusal(filter, level, invocation, readOnly);
        if (refusal) return ToolResult.fail(refusal, 'forbidden');
        const cwd = await resolveWorkingDirectory(services, name, args.cwd, { access: readOnly ? 'read' : 'write', confirm });
        const context: FilteredCommandContext<Parsed> = { invocation, level, readOnly, cwd, services, signal, confirm };
        const prepared = prepare ? await prepare(context) : { args: argv };
        const result = await runProcess(program, prepared.args, { cwd, timeoutMs: timeoutSeconds * 1000, signal, env: prepared.env });
        return present ? present(result, context) : toolResultFromRun(name, result, timeoutSeconds);
      },
  });
}
