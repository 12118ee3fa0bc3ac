import { NexusError } from './errors.js';
import type { JsonValue } from './json.js';

const TOOL_RESULT = Symbol.for('@nexus/core/ToolResult');

/** Why a skill failed. Callers branch on this, LLMs read the message. */
export type ToolErrorKind = 'invalid_input' | 'forbidden' | 'not_found' | 'timeout' | 'cancelled' | 'execution_failed';

/** Every valid {@link ToolErrorKind}, for validation and exhaustive tests. */
export const TOOL_ERROR_KINDS: readonly ToolErrorKind[] = [
  'invalid_input',
  'forbidden',
  'not_found',
  'timeout',
  'cancelled',
  'execution_failed',
];

/** Options for {@link ToolResult.fail}. */
export interface FailOptions {
  /** Whether the caller can fix the problem and retry (defaults by kind). */
  recoverable?: boolean;
  /** Structured detail about the failure. */
  data?: JsonValue;
}

/** The JSON form of a {@link ToolResult}, as sent over HTTP or printed by `nexus call --json`. */
export interface ToolResultJson {
  success: boolean;
  output: string;
  error: string;
  kind?: ToolErrorKind;
  recoverable?: boolean;
  data?: JsonValue;
}

const UNRECOVERABLE: ReadonlySet<ToolErrorKind> = new Set(['forbidden', 'cancelled']);

/**
 * What every skill returns: text for the LLM on success, an error message and a kind on
 * failure, and optional structured `data`. Skills never throw to their caller.
 */
export class ToolResult {
  /** Text for the LLM; `''` on failure. */
  readonly output: string;
  /** Error message; `''` on success. */
  readonly error: string;
  /** Why it failed; absent on success. */
  declare readonly kind?: ToolErrorKind;
  /** Whether retrying with other arguments can help; absent on success. */
  declare readonly recoverable?: boolean;
  /** Structured result (parsed git status, GitLab objects, …). */
  declare readonly data?: JsonValue;

  private constructor(output: string, error: string, kind?: ToolErrorKind, recoverable?: boolean, data?: JsonValue) {
    this.output = output;
    this.error = error;
    const self = this as { -readonly [K in keyof ToolResult]: ToolResult[K] };
    if (kind !== undefined) self.kind = kind;
    if (recoverable !== undefined) self.recoverable = recoverable;
    if (data !== undefined) self.data = data;
    Object.freeze(this);
  }

  /** A successful result. */
  static ok(output: string, data?: JsonValue): ToolResult {
    return new ToolResult(output, '', undefined, undefined, data);
  }

  /** A failed result. An empty message is replaced so a failure can never read as success. */
  static fail(error: string, kind: ToolErrorKind = 'execution_failed', options: FailOptions = {}): ToolResult {
    const { recoverable = !UNRECOVERABLE.has(kind), data } = options;
    return new ToolResult('', error || `Failed (${kind}).`, kind, recoverable, data);
  }

  /**
   * Turns anything thrown into a failed result: a {@link NexusError} keeps its kind,
   * `recoverable` and `data`, an `AbortError` becomes `cancelled`, anything else
   * `execution_failed`.
   */
  static fromError(error: unknown, prefix?: string): ToolResult {
    const message = error instanceof Error ? error.message : String(error);
    const text = prefix ? `${prefix}: ${message}` : message;
    if (NexusError.isInstance(error)) {
      const { kind, recoverable, data } = error;
      return ToolResult.fail(text, kind, {
        ...(recoverable === undefined ? {} : { recoverable }),
        ...(data === undefined ? {} : { data }),
      });
    }
    if (error instanceof Error && error.name === 'AbortError') return ToolResult.fail(text, 'cancelled');
    return ToolResult.fail(text, 'execution_failed');
  }

  /** Rebuilds a result from its JSON form. */
  static fromJSON(json: ToolResultJson): ToolResult {
    if (json.success) return ToolResult.ok(json.output, json.data);
    return ToolResult.fail(json.error, json.kind ?? 'execution_failed', {
      ...(json.recoverable === undefined ? {} : { recoverable: json.recoverable }),
      ...(json.data === undefined ? {} : { data: json.data }),
    });
  }

  /** True for a `ToolResult` from any copy of `@nexus/core`. */
  static isInstance(value: unknown): value is ToolResult {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_RESULT] === true;
  }

  static {
    // On the prototype, so every instance is recognised without a per-instance property.
    Object.defineProperty(ToolResult.prototype, TOOL_RESULT, { value: true });
  }

  /** True when the skill succeeded (`error === ''`). */
  get success(): boolean {
    return this.error === '';
  }

  /** The text an LLM should see: the output, or the error message. */
  get text(): string {
    return this.success ? this.output : this.error;
  }

  /** The JSON form; `JSON.stringify(result)` uses it. */
  toJSON(): ToolResultJson {
    const json: ToolResultJson = { success: this.success, output: this.output, error: this.error };
    if (this.kind !== undefined) json.kind = this.kind;
    if (this.recoverable !== undefined) json.recoverable = this.recoverable;
    if (this.data !== undefined) json.data = this.data;
    return json;
  }
}
