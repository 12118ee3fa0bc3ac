import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { JsonValue } from '@nexus/core';
import { type RunOptions, type RunResult, runProcess } from '@nexus/process';
import { currentStamp } from './file-stamp.js';
import type { CommandCategory, ParameterType } from './manifest-limits.js';
import { SCRIPT_HOST_SOURCE } from './script-host.js';
import { diagnosticAt, FILE_START, type FilePosition, type SkillDiagnostic } from './skill-diagnostic.js';

/** Where a package's script commands live, relative to its folder. */
export const SCRIPT_COMMANDS_FILE = join('scripts', 'commands.mjs');

/** A parameter of a script command, as in `SKILL.md` (§3). */
export interface SkillCommandParameter {
  type?: ParameterType;
  required?: boolean;
  description?: string;
  enum?: readonly (string | number | boolean)[];
  default?: string | number | boolean | readonly string[];
  allow_dash?: boolean;
}

/** What a script command says about itself. */
export interface SkillCommandSpec {
  /** The command's name (the tool is `<skill>__<name>`). */
  name: string;
  /** Written for an LLM. */
  description: string;
  /** `read` / `view` change nothing, `write` / `workflow` may destroy (and ask first), `general` (default) neither. */
  category?: CommandCategory;
  parameters?: Record<string, SkillCommandParameter>;
  /** Seconds before the command is stopped (at most 60, the default). */
  timeout?: number;
}

/** A script command: its spec and what it does. `run` may be async; it returns text or JSON. */
export interface SkillCommand<Args = Record<string, unknown>> extends SkillCommandSpec {
  run(args: Args): unknown;
}

/**
 * Defines a script command for a package's `scripts/commands.mjs`, with types. A plain object of
 * the same shape works just as well, so a package needs no dependency:
 *
 * ```ts
 * export const greet = defineSkillCommand({ name: 'greet', description: 'Greets someone.', parameters: { who: { required: true } } },
 *   ({ who }) => `hello ${who}`);
 * ```
 */
export function defineSkillCommand<Args = Record<string, unknown>>(
  spec: SkillCommandSpec,
  run: (args: Args) => unknown,
): SkillCommand<Args> {
  return { ...spec, run };
}

/** What the host program answered, or why there is no answer (where in the module, when it says). */
export type ScriptAnswer =
  | { ok: true; value: JsonValue; output: string }
  | { ok: false; error: string; output: string; position?: FilePosition };

/** A marker no command prints by chance: the host's answer follows it. */
export function answerMarker(): string {
  return `nexus-skill-answer-${randomBytes(12).toString('hex')}:`;
}

/** The answer a host program printed after `marker`, and what the command printed before it. */
export function readAnswer(run: RunResult, marker: string): ScriptAnswer {
  const at = run.stdout.lastIndexOf(`\n${marker}`);
  if (at === -1) {
    const reason = run.truncated ? 'its output passed the size limit before it answered' : 'it ended without answering';
    return { ok: false, error: `${reason}${run.stderr ? `:\n${run.stderr}` : ''}`, output: run.stdout };
  }
  const output = run.stdout.slice(0, at);
  try {
    const answer = JSON.parse(run.stdout.slice(at + marker.length + 1)) as {
      ok: boolean;
      error?: string;
      result?: JsonValue;
      commands?: JsonValue;
      line?: number;
      column?: number;
    };
    if (answer.ok) return { ok: true, value: (answer.result ?? answer.commands ?? null) as JsonValue, output };
    const position = answer.line ? { position: { line: answer.line, column: answer.column ?? 1 } } : {};
    return { ok: false, error: answer.error ?? 'unknown error', output, ...position };
  } catch {
    return { ok: false, error: 'its answer could not be read', output };
  }
}

/** Options of a script host run: those of `runProcess`, less the input. */
export type ScriptRunOptions = Omit<RunOptions, 'input'>;

/**
 * A script-commands module: where it is, and its text as it was listed with the file's
 * stamp (`fileStamp`) before that read (what runs, whatever the file holds now).
 */
export interface ScriptModule {
  readonly path: string;
  readonly source?: string | undefined;
  readonly stamp?: string | undefined;
}

/**
 * Runs the host program in a child Node process through the process runner: `list` answers the
 * module's command definitions, `run` runs one command with `args` (JSON on stdin) and answers
 * its result — of the module's held `source` where it has one, else of the file. The held text
 * goes to the child only when the file's stamp is no longer the one it was read at (one stat per
 * run); while it is, the child imports the file as it is. The run (exit code, timeout, output)
 * comes back with the answer.
 */
export async function runScriptHost(
  module: ScriptModule,
  request: { mode: 'list' } | { mode: 'run'; command: string; args: Record<string, unknown> },
  options: ScriptRunOptions,
): Promise<{ run: RunResult; answer: ScriptAnswer }> {
  const marker = answerMarker();
  const command = request.mode === 'run' ? request.command : '';
  const changed = module.source !== undefined && currentStamp(module.path) !== module.stamp;
  const input = JSON.stringify({ args: request.mode === 'run' ? request.args : {}, source: changed ? module.source : undefined });
  const run = await runProcess(
    process.execPath,
    ['--input-type=module', '--eval', SCRIPT_HOST_SOURCE, '--', module.path, request.mode, command, marker],
    { ...options, input },
  );
  return { run, answer: readAnswer(run, marker) };
}

/** The position node reports for an error in the module, else the file's start. */
export function modulePosition(error: string, module: string): FilePosition {
  const match = new RegExp(`${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)(?::(\\d+))?`).exec(error);
  return match ? { line: Number(match[1]), column: Number(match[2] ?? 1) } : FILE_START;
}

const SYNTAX_CHECK_TIMEOUT_MS = 15_000;

/**
 * `node --check` of a script-commands module, run as its listing is (`options`: see
 * `packageRunOptions`): undefined when it parses, else an error at the line node names.
 */
export async function checkScriptSyntax(module: string, options: ScriptRunOptions): Promise<SkillDiagnostic | undefined> {
  const run = await runProcess(process.execPath, ['--check', module], { ...options, timeoutMs: SYNTAX_CHECK_TIMEOUT_MS });
  if (run.exitCode === 0) return undefined;
  const reason = run.stderr.split('\n').find((line) => /Error/.test(line)) ?? (run.timedOut ? 'the check timed out' : 'it does not parse');
  return diagnosticAt('error', module, modulePosition(run.stderr, module), `scripts/commands.mjs has a syntax error: ${reason.trim()}`);
}
