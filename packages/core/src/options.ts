import { InvalidOptionError } from './errors.js';

/** A value as an "Expected …, got …" message shows it: strings quoted, arrays and objects named. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

/**
 * The one check behind every function's options (execa's style): throws an
 * {@link InvalidOptionError} "Expected \`option\` to be <expected>, got <value>." unless `ok`.
 *
 * ```ts
 * expectOption(Number.isFinite(timeoutMs) && timeoutMs > 0, 'timeoutMs', 'a positive number of milliseconds', timeoutMs);
 * ```
 */
export function expectOption(ok: boolean, option: string, expected: string, value: unknown): asserts ok {
  if (!ok) throw new InvalidOptionError(`Expected \`${option}\` to be ${expected}, got ${describeValue(value)}.`, { option });
}

/** Whether `value` is a finite number above zero (a time limit, a size). */
export function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** One problem a schema library reported (zod's issue shape): where, what, and for unknown keys, which. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
  /** The keys of an `unrecognized_keys` issue. */
  readonly keys?: readonly string[];
}

function field(path: readonly PropertyKey[]): string {
  return `\`${path.map(String).join('.')}\``;
}

/**
 * Formats schema-validation issues (zod's `error.issues`) as one sentence list:
 * `` `instances.work.url`: Expected an absolute http or https URL; `colour` is not a known setting ``.
 * The one formatter for zod errors, so settings, configuration files and configs read alike.
 */
export function formatSchemaIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map(({ path, message, code, keys }) => {
      if (code === 'unrecognized_keys' && keys) return keys.map((key) => `${field([...path, key])} is not a known setting`).join('; ');
      return path.length === 0 ? message : `${field(path)}: ${message}`;
    })
    .join('; ');
}
