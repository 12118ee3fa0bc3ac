import { ConfigError, type PermissionLevel, ToolResult } from '@nexus/core';
import { runProcess } from '@nexus/process';
import type { AfterCallHook, BeforeCallAnswer, BeforeCallHook, CallHooks, CallInfo, RuleCatalogue } from '@nexus/registry';

/** A hook program of the config file: run with the call as JSON on stdin, for every tool or only `tools`. */
export interface CommandHookEntry {
  /** The program and its arguments (no shell). */
  command: string[];
  /** The tools it is run for (default: all). */
  tools?: string[];
  /** How long it may take to answer (default {@link DEFAULT_HOOK_TIMEOUT_SECONDS}); past it, the call is denied. */
  timeoutSeconds?: number;
}

/** The command hooks of the config file, by when they run. */
export interface CommandHookSettings {
  beforeCall?: CommandHookEntry[];
  afterCall?: CommandHookEntry[];
}

/** A command hook's time limit when its entry sets none. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 10;

/** What a hook program reads on stdin (the wire names of issue 25's contract). */
interface HookInput {
  tool: string;
  arguments: Record<string, unknown>;
  caller: NonNullable<CallInfo['caller']> | Record<string, never>;
  agent_id?: string;
  cwd: string;
  level: PermissionLevel;
  result?: { success: boolean; output: string; error: string; kind?: string };
}

function hookInput(call: CallInfo, result?: ToolResult): HookInput {
  return {
    tool: call.tool,
    arguments: call.arguments,
    caller: call.caller ?? {},
    ...(call.caller?.agentId ? { agent_id: call.caller.agentId } : {}),
    cwd: call.cwd,
    level: call.level,
    ...(result
      ? { result: { success: result.success, output: result.output, error: result.error, ...(result.kind ? { kind: result.kind } : {}) } }
      : {}),
  };
}

/** Runs the program and returns its answer as a JSON object; throws, saying what went wrong, when there is none. */
async function ask(entry: CommandHookEntry, input: HookInput, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  const { command, timeoutSeconds = DEFAULT_HOOK_TIMEOUT_SECONDS } = entry;
  const [file, ...args] = command as [string, ...string[]];
  const run = await runProcess(file, args, {
    cwd: input.cwd,
    timeoutMs: timeoutSeconds * 1000,
    input: JSON.stringify(input),
    killGraceMs: 500,
    ...(signal ? { signal } : {}),
  });
  if (run.timedOut) throw new Error(`it did not answer within ${timeoutSeconds} s`);
  if (run.cancelled) throw new Error('the call was cancelled');
  if (run.exitCode !== 0) {
    const said = run.stderr.trim().split('\n')[0];
    throw new Error(`it exited with ${run.exitCode === null ? `signal ${run.signal}` : `code ${run.exitCode}`}${said ? `: ${said}` : ''}`);
  }
  try {
    const answer: unknown = JSON.parse(run.stdout);
    if (answer !== null && typeof answer === 'object' && !Array.isArray(answer)) return answer as Record<string, unknown>;
  } catch {}
  throw new Error('it answered no JSON object');
}

function named<Hook extends object>(hook: Hook, entry: CommandHookEntry): Hook {
  return Object.defineProperty(hook, 'name', { value: entry.command.join(' ') });
}

const appliesTo = (entry: CommandHookEntry, tool: string) => entry.tools === undefined || entry.tools.includes(tool);

function beforeCallHook(entry: CommandHookEntry): BeforeCallHook {
  return named(async (call, { signal }) => {
    if (!appliesTo(entry, call.tool)) return undefined;
    const answer = await ask(entry, hookInput(call), signal);
    const { decision, reason, arguments: args } = answer;
    const validArgs = args === undefined || (args !== null && typeof args === 'object' && !Array.isArray(args));
    if ((decision !== 'allow' && decision !== 'deny') || (reason !== undefined && typeof reason !== 'string') || !validArgs) {
      throw new Error('it answered no JSON object with a "decision" of "allow" or "deny"');
    }
    return { decision, ...(reason ? { reason } : {}), ...(args ? { arguments: args } : {}) } as BeforeCallAnswer;
  }, entry);
}

function afterCallHook(entry: CommandHookEntry): AfterCallHook {
  return named(async (call, result) => {
    if (!appliesTo(entry, call.tool)) return undefined;
    const { output } = await ask(entry, hookInput(call, result), undefined);
    if (output === undefined) return undefined;
    if (typeof output !== 'string') throw new Error('its "output" is not a string');
    return result.success ? ToolResult.ok(output, result.data) : result;
  }, entry);
}

/**
 * The config file's command hooks as registry hooks: each program gets the call as JSON on stdin
 * (`{ tool, arguments, caller, agent_id?, cwd, level }`, and `result` after the call) and answers
 * on stdout — `{ "decision": "allow" | "deny", "reason"?, "arguments"? }` before the call,
 * `{ "output"? }` after it. Run through `@nexus/process` with a time limit; a program that hangs,
 * fails or answers nonsense denies the call (withholds its result, after it), saying so.
 */
export function commandHooks(settings: CommandHookSettings): CallHooks {
  return {
    beforeCall: (settings.beforeCall ?? []).map(beforeCallHook),
    afterCall: (settings.afterCall ?? []).map(afterCallHook),
  };
}

/** Throws a `ConfigError` naming a hook's `tools` entry that names no tool of the registry (`hooks.beforeCall[0].tools`). */
export function checkHookTools(registry: RuleCatalogue, settings: CommandHookSettings): void {
  for (const when of ['beforeCall', 'afterCall'] as const) {
    for (const [index, entry] of (settings[when] ?? []).entries()) {
      const unknown = entry.tools?.find((tool) => !registry.getSpec(tool));
      if (unknown !== undefined) throw new ConfigError(`\`hooks.${when}[${index}].tools\`: no tool named "${unknown}".`);
    }
  }
}
