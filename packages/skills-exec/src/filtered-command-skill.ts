import { defineSkill, InvalidParametersError, type PermissionLevel, type ServiceContainer, type SkillSpec, ToolResult } from '@nexus/core';
import { DEFAULT_TIMEOUT_SECONDS } from './command-timeout.js';
import { requireString } from './execution-skill.js';
import { resolveWorkingDirectory } from './resolve-working-directory.js';
import { type RunResult, runProcess } from './run-process.js';
import { splitCommand } from './split-command.js';
import { toolResultFromRun } from './tool-result-from-run.js';

/** A parsed call of a filtered program. */
export interface CommandInvocation {
  /** Arguments after the program name. */
  readonly argv: readonly string[];
  /** The subcommand (`status` in `git -C x status -s`), when there is one. */
  readonly subcommand: string | undefined;
}

/** A command refused at `trusted` (and below), with the reason the LLM is told. */
export interface BlockedPattern {
  /** A RegExp tested against the arguments joined by single spaces, or a predicate over the invocation. */
  readonly pattern: RegExp | ((invocation: CommandInvocation) => boolean);
  readonly reason: string;
}

/** Seed 000 §FilteredCommandSkill: what each permission level may run. */
export interface CommandFilter {
  /** Subcommands allowed at `sandboxed`, or a predicate deciding it (e.g. `branch` only when it lists). */
  readonly readOnlyCommands: readonly string[] | ((invocation: CommandInvocation) => boolean);
  /** Refused at `trusted` and `sandboxed`; `yolo` runs everything. */
  readonly blockedPatterns: readonly BlockedPattern[];
}

/** Whether the filter counts an invocation as read-only. */
export function isReadOnlyInvocation(filter: CommandFilter, invocation: CommandInvocation): boolean {
  const { readOnlyCommands } = filter;
  if (typeof readOnlyCommands === 'function') return readOnlyCommands(invocation);
  return invocation.subcommand !== undefined && readOnlyCommands.includes(invocation.subcommand);
}

/**
 * Why `level` may not run `invocation`, or `undefined` when it may: `yolo` runs everything,
 * `trusted` everything but the blocked patterns, `sandboxed` only read-only commands that no
 * blocked pattern matches.
 */
export function findCommandRefusal(filter: CommandFilter, level: PermissionLevel, invocation: CommandInvocation): string | undefined {
  if (level === 'yolo') return undefined;
  const line = invocation.argv.join(' ');
  for (const { pattern, reason } of filter.blockedPatterns) {
    if (typeof pattern === 'function' ? pattern(invocation) : pattern.test(line)) return `\`${line}\` is blocked below yolo: ${reason}`;
  }
  if (level === 'sandboxed' && !isReadOnlyInvocation(filter, invocation)) {
    const allowed = Array.isArray(filter.readOnlyCommands) ? ` (${filter.readOnlyCommands.join(', ')})` : '';
    return `\`${line}\` is not a read-only command; only read-only commands${allowed} run at the sandboxed level.`;
  }
  return undefined;
}

/** What a filtered skill's `prepare` hook sees. */
export interface FilteredCommandContext {
  readonly invocation: CommandInvocation;
  /** The agent's level; `sandboxed` when no policy is registered. */
  readonly level: PermissionLevel;
  readonly readOnly: boolean;
  /** The validated working directory. */
  readonly cwd: string;
  readonly services: ServiceContainer;
  readonly signal: AbortSignal | undefined;
}

/** The arguments and extra environment a filtered skill finally runs its program with. */
export interface PreparedCommand {
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
}

/** What {@link defineFilteredCommandSkill} takes. */
export interface FilteredCommandSkillDefinition {
  name: string;
  /** Written for an LLM. */
  description: string;
  /** The program run, e.g. `git`. A leading program name in `command` is dropped. */
  program: string;
  filter: CommandFilter;
  /** Finds the subcommand (default: the first argument not starting with `-`). */
  findSubcommand?(argv: readonly string[]): string | undefined;
  /** Checks and rewrites the arguments (hardening, sandbox checks) after the filter allowed them. */
  prepare?(context: FilteredCommandContext): PreparedCommand | Promise<PreparedCommand>;
  /** Turns the run into the result (default: output text plus the run in `data`). */
  present?(result: RunResult, context: FilteredCommandContext): ToolResult;
  /** Time limit in seconds (default 30). */
  timeoutSeconds?: number;
  /** Description of the `command` parameter. */
  commandDescription?: string;
}

function firstNonOption(argv: readonly string[]): string | undefined {
  return argv.find((word) => !word.startsWith('-'));
}

/**
 * Defines a skill that runs one program whose subcommands are filtered by permission level
 * (seed 000 §FilteredCommandSkill): `command` is split without a shell, checked against the
 * {@link CommandFilter}, the `cwd` is validated against the sandbox (for writing when the command
 * is not read-only), and the program runs through the process runner. Offered at every level.
 */
export function defineFilteredCommandSkill(definition: FilteredCommandSkillDefinition): SkillSpec {
  const {
    name,
    description,
    program,
    filter,
    findSubcommand = firstNonOption,
    prepare,
    present,
    timeoutSeconds = DEFAULT_TIMEOUT_SECONDS,
  } = definition;
  return defineSkill<{ command: string; cwd?: string }>({
    name,
    description,
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
      async (args, { signal }) => {
        const words = splitCommand(requireString(args, 'command'), { hint: `Give only the ${program} arguments.` });
        const argv = words[0] === program ? words.slice(1) : words;
        if (argv.length === 0) throw new InvalidParametersError(`\`command\` holds no arguments for ${program}.`, { parameter: 'command' });
        const invocation: CommandInvocation = { argv, subcommand: findSubcommand(argv) };
        const level = services.getPermissionLevel() ?? 'sandboxed';
        const refusal = findCommandRefusal(filter, level, invocation);
        if (refusal) return ToolResult.fail(refusal, 'forbidden');
        const readOnly = isReadOnlyInvocation(filter, invocation);
        const cwd = await resolveWorkingDirectory(services, name, args.cwd, readOnly ? 'read' : 'write');
        const context: FilteredCommandContext = { invocation, level, readOnly, cwd, services, signal };
        const prepared = prepare ? await prepare(context) : { args: argv };
        const result = await runProcess(program, prepared.args, { cwd, timeoutMs: timeoutSeconds * 1000, signal, env: prepared.env });
        return present ? present(result, context) : toolResultFromRun(name, result, timeoutSeconds);
      },
  });
}
