import { InvalidParametersError, type JsonSchema } from '@nexus/core';

/** Time limit of a command when the caller gives none, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** Shortest time limit a command gets, in seconds. */
export const MIN_TIMEOUT_SECONDS = 1;
/** Longest time limit a command gets, in seconds. */
export const MAX_TIMEOUT_SECONDS = 300;

/** The `timeout` parameter of command skills. */
export const timeoutParameter: JsonSchema = {
  type: 'integer',
  default: DEFAULT_TIMEOUT_SECONDS,
  description: `Seconds before the command and everything it started are stopped (default ${DEFAULT_TIMEOUT_SECONDS}; values are clamped to ${MIN_TIMEOUT_SECONDS}–${MAX_TIMEOUT_SECONDS}).`,
};

/**
 * A command's time limit in seconds: the default when absent, otherwise clamped to 1–300.
 * Anything but a finite number is an {@link InvalidParametersError} naming `timeout`.
 */
export function clampTimeoutSeconds(value: unknown): number {
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidParametersError(`Expected \`timeout\` to be a number of seconds, got ${JSON.stringify(value) ?? String(value)}.`, {
      parameter: 'timeout',
    });
  }
  return Math.min(MAX_TIMEOUT_SECONDS, Math.max(MIN_TIMEOUT_SECONDS, value));
}
