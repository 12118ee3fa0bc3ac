import { type JsonObject, type JsonSchemaObject, ToolResult } from '@nexus/core';
import type { RunResult } from './run-process.js';

/**
 * JSON Schema of {@link runResultData}'s object, for the `outputSchema` of command skills; open,
 * so a skill may add its own fields (git adds its parsed output).
 */
export const RUN_RESULT_DATA_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    stdout: { type: 'string' },
    stderr: { type: 'string' },
    exitCode: { type: ['integer', 'null'], description: 'null when a signal ended the command.' },
    signal: { type: ['string', 'null'] },
    timedOut: { type: 'boolean' },
    cancelled: { type: 'boolean' },
    truncated: { type: 'boolean', description: 'The output was cut at the size limit.' },
    durationMs: { type: 'number' },
    sandboxed: { type: 'boolean', description: 'Whether the command ran in the bubblewrap sandbox.' },
  },
  required: ['stdout', 'stderr', 'exitCode', 'signal', 'timedOut', 'cancelled', 'truncated', 'durationMs', 'sandboxed'],
};

/** The structured form of a run, for `ToolResult.data`. */
export function runResultData(result: RunResult): JsonObject {
  const { stdout, stderr, exitCode, signal, timedOut, cancelled, truncated, durationMs, sandboxed } = result;
  return { stdout, stderr, exitCode, signal, timedOut, cancelled, truncated, durationMs, sandboxed };
}

/** A run's output as an LLM reads it: stdout, then stderr under a heading, then how it ended when that was not a clean exit. */
export function formatRunOutput(result: RunResult): string {
  const parts: string[] = [];
  if (result.stdout !== '') parts.push(result.stdout.replace(/\n$/, ''));
  if (result.stderr !== '') parts.push(`[stderr]\n${result.stderr.replace(/\n$/, '')}`);
  if (result.exitCode !== null && result.exitCode !== 0) parts.push(`[exit code ${result.exitCode}]`);
  if (result.signal !== null && !result.timedOut && !result.cancelled) parts.push(`[ended by ${result.signal}]`);
  return parts.length === 0 ? '(no output)' : parts.join('\n');
}

/**
 * Turns a run into the skill's {@link ToolResult}: success for exit code 0; otherwise a failure
 * whose message carries the output — `timeout` or `cancelled` when the run was ended, else
 * `execution_failed`. `data` always holds the structured run.
 */
export function toolResultFromRun(tool: string, result: RunResult, timeoutSeconds?: number): ToolResult {
  const data = runResultData(result);
  const output = formatRunOutput(result);
  if (result.timedOut) {
    const limit = timeoutSeconds === undefined ? '' : ` within ${timeoutSeconds} s`;
    return ToolResult.fail(`${tool}: the command did not finish${limit} and was stopped.\n${output}`, 'timeout', { data });
  }
  if (result.cancelled) return ToolResult.fail(`${tool}: the command was cancelled.\n${output}`, 'cancelled', { data });
  if (result.exitCode === 0) return ToolResult.ok(output, data);
  return ToolResult.fail(`${tool}: the command failed.\n${output}`, 'execution_failed', { data });
}
