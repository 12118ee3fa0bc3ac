import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '@nexus/process';
import { runProcess } from '@nexus/process';
import { currentStamp } from './file-stamp.js';
import { PYTHON_COMPILE_SOURCE, PYTHON_LIST_SOURCE, PYTHON_RUN_SOURCE } from './python-host.js';
import { answerMarker, readAnswer, type ScriptAnswer, type ScriptModule, type ScriptRunOptions } from './script-commands.js';
import { diagnosticAt, type SkillDiagnostic } from './skill-diagnostic.js';

/** The interpreter, looked up on `PATH`. */
const PYTHON = 'python3';
const CHECK_TIMEOUT_MS = 15_000;

/** A command as the listing read it from a decorated function. */
export interface PythonCommandDefinition {
  /** The function's own name, which a run calls. */
  readonly function: string;
  readonly name: unknown;
  readonly description: unknown;
  readonly category?: unknown;
  readonly parameters: unknown;
  readonly line: number;
}

/**
 * Lists a `scripts/commands.py` without importing it: a child python3 (through the process
 * runner, with `options`' sandbox) parses and compiles `source` and answers each `@skill_script`
 * function with its parameters typed from the signature (see `PYTHON_LIST_SOURCE`).
 */
export async function listPythonCommands(
  module: { readonly path: string; readonly source: string },
  options: ScriptRunOptions,
): Promise<{ run: RunResult; answer: ScriptAnswer }> {
  const marker = answerMarker();
  const run = await runProcess(PYTHON, ['-c', PYTHON_LIST_SOURCE, module.path, marker], { ...options, input: module.source });
  return { run, answer: readAnswer(run, marker) };
}

/**
 * Runs one Python command in a child python3 with the `agent.skills.decorators` shim: the module's
 * held text when the file changed since it was listed (so the version in use keeps answering),
 * else the file; arguments as JSON on stdin, called as keywords, awaited when async.
 */
export async function runPythonCommand(
  module: ScriptModule,
  functionName: string,
  args: Readonly<Record<string, unknown>>,
  options: ScriptRunOptions,
): Promise<{ run: RunResult; answer: ScriptAnswer }> {
  const marker = answerMarker();
  const changed = module.source !== undefined && currentStamp(module.path) !== module.stamp;
  const input = JSON.stringify({ args, ...(changed ? { source: module.source } : {}) });
  const run = await runProcess(PYTHON, ['-c', PYTHON_RUN_SOURCE, module.path, functionName, marker], { ...options, input });
  return { run, answer: readAnswer(run, marker) };
}

/**
 * `python3 -m py_compile` of a changed module before it replaces the one in use (seed 004), run as
 * its listing is; the bytecode goes to a scratch folder (`PYTHONPYCACHEPREFIX`), never beside the
 * module, which a sandbox keeps read-only. Undefined when it compiles, else an error at the line
 * Python names.
 */
export async function checkPythonSyntax(module: string, options: ScriptRunOptions): Promise<SkillDiagnostic | undefined> {
  const scratch = await mkdtemp(join(tmpdir(), 'nexus-pycache-'));
  try {
    const run = await runProcess(PYTHON, ['-c', PYTHON_COMPILE_SOURCE, module], {
      ...options,
      env: { PYTHONPYCACHEPREFIX: scratch },
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    if (run.exitCode === 0) return undefined;
    const line = Number(/line (\d+)/.exec(run.stderr)?.[1] ?? 1);
    const reason = run.stderr.trim().split('\n').at(-1) ?? (run.timedOut ? 'the check timed out' : 'it does not compile');
    return diagnosticAt('error', module, { line, column: 1 }, `scripts/commands.py does not compile: ${reason.trim()}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
