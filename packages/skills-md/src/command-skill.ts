import { stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import {
  defineSkill,
  InvalidParametersError,
  isWithin,
  type JsonObject,
  type JsonValue,
  NotFoundError,
  PathSecurityError,
  type ServiceContainer,
  type SkillContext,
  type SkillSpec,
  type ToolResult,
} from '@nexus/core';
import { type RunResult, runProcess } from '@nexus/process';
import { fillCommandTemplate } from './command-template.js';
import { type PackageRunOptions, packageRunOptions } from './package-run-options.js';
import { runPythonCommand } from './python-commands.js';
import { renderResultTemplate } from './result-templates.js';
import { runScriptHost } from './script-commands.js';
import type { PackageCommand, SkillPackage } from './skill-package.js';
import { type CommandValue, findMissingParameters, parametersJsonSchema, prepareValues } from './skill-parameters.js';
import { type SkillOutcome, skillResultData, toSkillToolResult } from './skill-result.js';
import { matchesTrust, readTrustRecords } from './trust-records.js';
import { recordSkillUsage } from './usage-records.js';

/** Where a command's surroundings are: set once for the family. */
export interface CommandRuntime {
  /** Default outputs go here; relative to the working directory unless absolute. */
  readonly outputDirectory: string;
  /** Trust and usage records. */
  readonly stateDirectory: string;
  /** User overrides of result templates: `<templatesDirectory>/<skill>/`. */
  readonly templatesDirectory: string;
  /** Cap of each of stdout and stderr, in bytes. */
  readonly maxOutputBytes: number;
}

const SNIPPET_CHARACTERS = 2_000;
const snippet = (text: string) => (text.length > SNIPPET_CHARACTERS ? `…${text.slice(-SNIPPET_CHARACTERS)}` : text);
const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};

function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)}MB`;
}

function display(path: string, cwd: string): string {
  return isWithin(path, cwd) ? relative(cwd, path) || '.' : path;
}

/** How a call runs its program. */
type RunOptionsOfCall = PackageRunOptions & { signal?: AbortSignal | undefined };

/** What one call produced: the state, and the raw run for result templates. */
interface CallOutcome {
  readonly outcome: Omit<SkillOutcome, 'skill' | 'command' | 'seconds'>;
  readonly run?: RunResult;
}

function failure(errorType: SkillOutcome['errorType'], summary: string, data: JsonObject, recoverable?: boolean | null): CallOutcome {
  const state = errorType === 'ParamMissing' ? 'pending' : errorType === 'Timeout' ? 'timeout' : 'error';
  return { outcome: { state, errorType, summary, data, ...(recoverable === undefined ? {} : { recoverable }) } };
}

/** The outcome of an error thrown while preparing a call: bad values, refused paths, missing files. */
function preparationFailure(error: unknown): CallOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (PathSecurityError.isInstance(error)) return failure('Forbidden', message, { reason: message }, false);
  if (InvalidParametersError.isInstance(error))
    return failure('ParamInvalid', message, { parameter: error.parameter ?? null, reason: message }, true);
  if (NotFoundError.isInstance(error)) return failure('ParamInvalid', message, { reason: message }, true);
  throw error;
}

async function outputData(outputs: readonly string[], cwd: string): Promise<JsonObject> {
  const [output] = outputs;
  if (output === undefined) return {};
  const size = await stat(output).then(
    (info) => humanSize(info.size),
    () => null,
  );
  return { output_path: display(output, cwd), output_size: size };
}

function runFailure(command: PackageCommand, run: RunResult): CallOutcome | undefined {
  const elapsed = Math.round(run.durationMs / 100) / 10;
  if (run.timedOut) {
    return {
      outcome: failure(
        'Timeout',
        `${command.name} did not finish within ${command.timeoutSeconds} s and was stopped`,
        {
          elapsed,
          limit: command.timeoutSeconds,
        },
        true,
      ).outcome,
      run,
    };
  }
  if (run.cancelled) return { ...failure('Cancelled', `${command.name} was cancelled`, { elapsed }, false), run };
  if (run.exitCode === 0) return undefined;
  const how = run.exitCode === null ? `ended by ${run.signal}` : `exit ${run.exitCode}`;
  const data = { exit_code: run.exitCode, signal: run.signal, stderr: snippet(run.stderr), stdout: snippet(run.stdout) };
  const reason = firstLine(run.stderr) || firstLine(run.stdout);
  return { ...failure('RuntimeFailed', `${command.name} failed (${how})${reason ? `: ${reason}` : ''}`, data, null), run };
}

async function runTemplateCommand(
  command: PackageCommand,
  argv: readonly string[],
  options: RunOptionsOfCall,
): Promise<{ run: RunResult; data: JsonObject; summary?: string; error?: string }> {
  const template = command.template as NonNullable<PackageCommand['template']>;
  const run = await runProcess(template.program, argv, { ...options, timeoutMs: command.timeoutSeconds * 1000 });
  return { run, data: { stdout: run.stdout, ...(run.stderr ? { stderr: snippet(run.stderr) } : {}) } };
}

async function runScriptCommand(
  command: PackageCommand,
  values: Record<string, CommandValue>,
  options: RunOptionsOfCall,
): Promise<{ run: RunResult; data: JsonObject; summary?: string; error?: string }> {
  const module = { path: command.script as string, source: command.scriptSource, stamp: command.scriptStamp };
  const runOptions = { ...options, timeoutMs: command.timeoutSeconds * 1000 };
  const { run, answer } = command.pythonFunction
    ? await runPythonCommand(module, command.pythonFunction, values, runOptions)
    : await runScriptHost(module, { mode: 'run', command: command.name, args: values }, runOptions);
  if (!answer.ok) return { run, data: {}, error: answer.error };
  const result: JsonValue = answer.value;
  const summary = typeof result === 'string' ? firstLine(result) : undefined;
  return { run, data: { result, ...(answer.output.trim() ? { output: snippet(answer.output) } : {}) }, ...(summary ? { summary } : {}) };
}

async function callCommand(
  skillPackage: SkillPackage,
  command: PackageCommand,
  runtime: CommandRuntime,
  services: ServiceContainer,
  args: Record<string, unknown>,
  context: SkillContext,
): Promise<CallOutcome> {
  const exists = await stat(skillPackage.skillFile).then(
    () => true,
    () => false,
  );
  if (!exists) {
    const folderGone = !(await stat(skillPackage.folder).then(
      () => true,
      () => false,
    ));
    return folderGone
      ? failure('SkillNotFound', `the package folder ${skillPackage.folder} is gone`, { folder: skillPackage.folder }, true)
      : failure('MetadataMissing', `${skillPackage.skillFile} is missing`, { file: skillPackage.skillFile }, false);
  }
  if (skillPackage.root.scope === 'project') {
    const records = await readTrustRecords(runtime.stateDirectory);
    if (!(await matchesTrust(skillPackage.folder, records[skillPackage.folder]))) {
      const reason = `the project skill changed since it was trusted; run \`nexus skills trust ${skillPackage.name}\` after checking it`;
      return failure('Untrusted', reason, { folder: skillPackage.folder }, false);
    }
  }
  const missing = findMissingParameters(command.parameters, args);
  if (missing) return failure('ParamMissing', `${command.name} needs ${missing.required.join(', ')}`, { ...missing }, true);

  const cwd = services.getCwd();
  let prepared: Awaited<ReturnType<typeof prepareValues>>;
  try {
    prepared = await prepareValues(command.parameters, args, {
      services,
      tool: command.tool,
      skill: skillPackage.name,
      command: command.name,
      outputDirectory: resolve(cwd, runtime.outputDirectory),
      confirm: context.confirm,
    });
  } catch (error) {
    return preparationFailure(error);
  }
  let argv: string[] | undefined;
  try {
    if (command.template) {
      const strings = Object.fromEntries(Object.entries(prepared.values).map(([name, value]) => [name, String(value)]));
      argv = fillCommandTemplate(command.template, strings, command.parameters);
    }
  } catch (error) {
    return preparationFailure(error);
  }
  const runOptions = await packageRunOptions({
    services,
    folder: skillPackage.folder,
    maxOutputBytes: runtime.maxOutputBytes,
    command: { tool: command.tool, outputs: prepared.outputs },
  });
  if (command.category === 'write' || command.category === 'workflow') {
    const shown = argv ? [command.template?.program, ...argv].join(' ') : JSON.stringify(prepared.values);
    const action = `run ${skillPackage.name} ${command.name} (${command.category}): ${shown}`;
    if (!(await services.confirm({ tool: command.tool, action, detail: `working directory: ${cwd}` }, context.confirm))) {
      return failure(
        'Forbidden',
        `${command.tool} needs confirmation at the ${services.getPermissionLevel()} level, and it was not given`,
        {},
        false,
      );
    }
  }
  const options: RunOptionsOfCall = { ...runOptions, signal: context.signal };
  const ran = argv ? await runTemplateCommand(command, argv, options) : await runScriptCommand(command, prepared.values, options);
  const failed = runFailure(command, ran.run);
  if (failed) return failed;
  if (ran.error !== undefined) {
    return {
      ...failure('RuntimeFailed', `${command.name} failed: ${firstLine(ran.error)}`, { error: snippet(ran.error) }, null),
      run: ran.run,
    };
  }
  const output = await outputData(prepared.outputs, cwd);
  const target = (output.output_path as string | undefined) ?? ran.summary ?? (firstLine(ran.run.stdout) || 'done');
  return { outcome: { state: 'success', summary: `${command.name} → ${target}`, data: { ...output, ...ran.data } }, run: ran.run };
}

/** Options of {@link commandSkill}. */
export interface CommandSkillOptions {
  readonly skillPackage: SkillPackage;
  readonly command: PackageCommand;
  readonly runtime: CommandRuntime;
}

function describeCommand(skillPackage: SkillPackage, command: PackageCommand): string {
  const own = command.description || skillPackage.description;
  return command.template && command.name === 'run' && command.tool === skillPackage.name
    ? own
    : `${own} (command \`${command.name}\` of the ${skillPackage.name} skill)`;
}

/**
 * The tool of one command of a package (§3–§6): `trusted` and up; read-only for `read`/`view`,
 * destructive (confirmed first, as the policy asks) for `write`/`workflow`. Every outcome is
 * seed 003's result (two lines of text, the state in `data`), rendered through the package's
 * result templates where it has them; successful runs are recorded in the usage records.
 */
export function commandSkill(options: CommandSkillOptions): SkillSpec {
  const { skillPackage, command, runtime } = options;
  return defineSkill<Record<string, unknown>>({
    name: command.tool,
    description: describeCommand(skillPackage, command),
    parameters: parametersJsonSchema(command.parameters, runtime.outputDirectory),
    readOnly: command.category === 'read' || command.category === 'view',
    destructive: command.category === 'write' || command.category === 'workflow',
    minimumLevel: 'trusted',
    ...(skillPackage.digest === undefined ? {} : { packageDigest: skillPackage.digest }),
    create:
      (services) =>
      async (args, context): Promise<ToolResult> => {
        const started = performance.now();
        const { outcome, run } = await callCommand(skillPackage, command, runtime, services, args, context).catch(
          (error: unknown): CallOutcome => failure('RuntimeFailed', error instanceof Error ? error.message : String(error), {}, null),
        );
        const full: SkillOutcome = {
          ...outcome,
          skill: skillPackage.name,
          command: command.name,
          seconds: (performance.now() - started) / 1000,
        };
        const data = skillResultData(full);
        const fallback = toSkillToolResult(full, data);
        // Recorded in the background: the record is bookkeeping, and a locked atomic write would double a short command's time.
        if (full.state === 'success') void recordSkillUsage(runtime.stateDirectory, skillPackage.name, command.name).catch(() => undefined);
        const text = await renderResultTemplate(
          [join(runtime.templatesDirectory, skillPackage.name), join(skillPackage.folder, 'templates')],
          full.state === 'success',
          {
            skill: skillPackage.name,
            command: command.name,
            state: full.state,
            data: data.data as JsonObject,
            meta: data.meta as JsonObject,
            stdout: run?.stdout ?? '',
            stderr: run?.stderr ?? '',
            exit_code: run?.exitCode ?? null,
          },
          fallback.text,
        );
        return text === undefined ? fallback : toSkillToolResult(full, data, text);
      },
  });
}
