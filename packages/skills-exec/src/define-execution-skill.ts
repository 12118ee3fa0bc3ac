import { defineSkill, InvalidParametersError, type JsonSchemaObject, type ServiceContainer, type SkillSpec, ToolResult } from '@nexus/core';
import {
  clampTimeoutSeconds,
  RUN_RESULT_DATA_SCHEMA,
  resolveCommandSandbox,
  resolveWorkingDirectory,
  runProcess,
  timeoutParameter,
  toolResultFromRun,
} from '@nexus/process';

/** Arguments every execution skill takes besides its own. */
export interface ExecutionArguments {
  /** Seconds before the command is stopped (default 30, clamped to 1–300). */
  timeout?: number;
  /** Working directory, validated against the sandbox (default: the agent's). */
  cwd?: string;
}

/** What an execution skill runs: a program, its arguments, optional stdin and extra environment. */
export interface CommandToRun {
  file: string;
  args: readonly string[];
  input?: string;
  env?: Record<string, string>;
}

/** What {@link defineExecutionSkill} takes. */
export interface ExecutionSkillDefinition<Args extends ExecutionArguments> {
  name: string;
  /** A name for people (MCP `title`). */
  title?: string;
  /** Written for an LLM. */
  description: string;
  /** The skill's own parameters (`command`, `code` …) as a JSON Schema object; `timeout` and `cwd` are added. */
  parameters: JsonSchemaObject;
  /** Builds the command from the arguments; throw an `InvalidParametersError` for bad input. */
  prepare(args: Args, services: ServiceContainer): CommandToRun;
  /** One line for the confirmation prompt, e.g. `run: ls -la`. */
  describe(args: Args, command: CommandToRun): string;
}

/** Reads a required string argument; anything else is an `InvalidParametersError` naming it. */
export function requireString(args: object, name: string): string {
  const value = (args as Record<string, unknown>)[name];
  if (typeof value !== 'string' || value === '') {
    throw new InvalidParametersError(
      `Expected \`${name}\` to be a non-empty string, got ${value === '' ? 'an empty string' : value === null ? 'null' : typeof value}.`,
      { parameter: name },
    );
  }
  return value;
}

/**
 * Defines a command-running skill (seed 000 §ExecutionSkill) from what makes it different — its
 * parameters and how it builds the command. Everything else is shared: `minimumLevel: 'trusted'`
 * (which `defineSkill` enforces inside the skill too, also without a policy), the `timeout`
 * (clamped to 1–300 s) and `cwd` (sandbox-checked) parameters, confirmation of every command
 * (granted at `yolo`; asked at `trusted` of the call's own `confirm`, else the `confirm` service;
 * refused with neither), the process runner — inside bubblewrap as the `exec` settings and the
 * level decide (`resolveCommandSandbox`: at `trusted` by default, writable only in the tool's write
 * roots) — and output formatted for an LLM with the structured run in `data` (its `outputSchema`).
 */
export function defineExecutionSkill<Args extends ExecutionArguments>(definition: ExecutionSkillDefinition<Args>): SkillSpec {
  const { name, title, description, parameters, prepare, describe } = definition;
  return defineSkill<Args>({
    name,
    ...(title === undefined ? {} : { title }),
    description,
    parameters: {
      additionalProperties: false,
      ...parameters,
      properties: {
        ...parameters.properties,
        timeout: timeoutParameter,
        cwd: {
          type: 'string',
          description: "Working directory (default: the agent's working directory); must be inside the allowed paths.",
        },
      },
    },
    readOnly: false,
    destructive: true,
    minimumLevel: 'trusted',
    outputSchema: RUN_RESULT_DATA_SCHEMA,
    create:
      (services) =>
      async (args, { signal, confirm }) => {
        const timeout = clampTimeoutSeconds(args.timeout);
        const command = prepare(args, services);
        const cwd = await resolveWorkingDirectory(services, name, args.cwd);
        const sandbox = await resolveCommandSandbox(services, name);
        if (!(await services.confirm({ tool: name, action: describe(args, command), detail: `working directory: ${cwd}` }, confirm))) {
          return ToolResult.fail(
            `${name} needs confirmation at the ${services.getPermissionLevel()} level, and it was not given.`,
            'forbidden',
          );
        }
        const { file, args: argv, input, env } = command;
        const result = await runProcess(file, argv, { cwd, timeoutMs: timeout * 1000, signal, input, env, sandbox });
        return toolResultFromRun(name, result, timeout);
      },
  });
}
