import type { JsonValue } from './json.js';
import type { ToolErrorKind } from './tool-result.js';

/**
 * The codes of the errors core defines. `code` is an open string: a family's own errors bring
 * their own codes (`GITLAB_API`, `STALE_FILE`, …).
 */
export type NexusErrorCode =
  | 'NEXUS_ERROR'
  | 'SKILL_NOT_FOUND'
  | 'NOT_FOUND'
  | 'SKILL_EXECUTION_FAILED'
  | 'INVALID_PARAMETERS'
  | 'INVALID_OPTION'
  | 'PATH_SECURITY'
  | 'PERMISSION_DENIED'
  | 'CONFIG_INVALID'
  | 'TIMEOUT'
  | 'CANCELLED'
  // Any other string; the intersection keeps editors suggesting the known codes.
  | (string & {});

/** Options of every Nexus error constructor. */
export interface NexusErrorOptions {
  /** Machine-readable code (default: the class's). */
  code?: NexusErrorCode;
  /** The `ToolResult` kind a skill reports when this error ends its run (default: the class's). */
  kind?: ToolErrorKind;
  /** The error this one wraps. */
  cause?: unknown;
  /** Whether the caller can fix the problem and retry (default: by kind, as in `ToolResult.fail`). */
  recoverable?: boolean;
  /** Structured detail that travels into the failed `ToolResult`'s `data`. */
  data?: JsonValue;
}

/** What a subclass constructor takes besides its message: the base options without `code` and `kind`. */
export type ErrorOptions = Omit<NexusErrorOptions, 'code' | 'kind'>;

type Branded = Record<symbol, unknown>;

/**
 * Base class of every error Nexus throws. Carries a string `code`, the `ToolResult` kind it maps
 * to, and optionally `recoverable` and `data` for the result.
 *
 * Each class has its own `Symbol.for` brand (`static brand`), set on every instance together with
 * the brands of its ancestors, so `X.isInstance(error)` recognises an `X` (or a subclass of `X`)
 * from any copy of the defining package — which `instanceof` does not when a project ends up with
 * two copies installed — and never mistakes one class for another. A subclass declares its own:
 *
 * ```ts
 * class StaleFileError extends NexusError {
 *   static override readonly brand: symbol = Symbol.for('@nexus/skills-fs/StaleFileError');
 * }
 * ```
 */
export class NexusError extends Error {
  /** The class's brand; each subclass declares its own. */
  static readonly brand: symbol = Symbol.for('@nexus/core/NexusError');
  /** Default code of the class's instances. */
  static readonly code: NexusErrorCode = 'NEXUS_ERROR';
  /** Default kind of the class's instances. */
  static readonly kind: ToolErrorKind = 'execution_failed';

  /** Stable, machine-readable code. */
  readonly code: NexusErrorCode;
  /** The `ToolResult` kind a skill reports when this error ends its run. */
  readonly kind: ToolErrorKind;
  /** Whether retrying with other arguments can help; `undefined` leaves it to the kind. */
  declare readonly recoverable?: boolean;
  /** Structured detail for the failed result. */
  declare readonly data?: JsonValue;

  constructor(message: string, options: NexusErrorOptions = {}) {
    const { code, kind, cause, recoverable, data } = options;
    super(message, cause === undefined ? undefined : { cause });
    const Class = new.target as typeof NexusError;
    this.name = Class.name;
    this.code = code ?? Class.code;
    this.kind = kind ?? Class.kind;
    if (recoverable !== undefined) Object.defineProperty(this, 'recoverable', { value: recoverable, enumerable: true });
    if (data !== undefined) Object.defineProperty(this, 'data', { value: data, enumerable: true });
    for (let current: unknown = Class; current !== Error && typeof current === 'function'; current = Object.getPrototypeOf(current)) {
      if (Object.hasOwn(current, 'brand')) (this as unknown as Branded)[(current as typeof NexusError).brand] = true;
    }
  }

  /**
   * True for an instance of this class (or a subclass) from any copy of its package. A class that
   * declares no brand of its own is recognised by `instanceof` only. Call it on the class
   * (`PathSecurityError.isInstance(error)`); as a callback, bind it or wrap it in an arrow.
   */
  static isInstance<T extends abstract new (...args: never[]) => NexusError>(this: T, value: unknown): value is InstanceType<T> {
    if (typeof this !== 'function')
      throw new TypeError('Call isInstance on an error class (`PathSecurityError.isInstance(error)`), not detached.');
    if (typeof value !== 'object' || value === null) return false;
    if (!Object.hasOwn(this, 'brand')) return value instanceof this;
    return (value as Branded)[(this as unknown as typeof NexusError).brand] === true;
  }
}

/** A tool name was looked up that the registry does not know. */
export class SkillNotFoundError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/SkillNotFoundError');
  static override readonly code = 'SKILL_NOT_FOUND';
  static override readonly kind = 'not_found';
  readonly skillName: string;
  constructor(skillName: string, options?: ErrorOptions) {
    super(`Unknown skill "${skillName}".`, options);
    this.skillName = skillName;
  }
}

/** A file, directory or other resource a skill needs does not exist. */
export class NotFoundError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/NotFoundError');
  static override readonly code = 'NOT_FOUND';
  static override readonly kind = 'not_found';
}

/** A skill failed while running. */
export class SkillExecutionError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/SkillExecutionError');
  static override readonly code = 'SKILL_EXECUTION_FAILED';
  readonly skillName: string;
  readonly reason: string;
  constructor(skillName: string, reason: string, options?: ErrorOptions) {
    super(`${skillName} failed: ${reason}`, options);
    this.skillName = skillName;
    this.reason = reason;
  }
}

/** Options of {@link InvalidParametersError}. */
export interface InvalidParametersErrorOptions extends ErrorOptions {
  /** The parameter the problem is about, when there is one. */
  parameter?: string;
}

/** Arguments did not match a skill's parameters. The message names the parameter. */
export class InvalidParametersError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/InvalidParametersError');
  static override readonly code = 'INVALID_PARAMETERS';
  static override readonly kind = 'invalid_input';
  /** Parameter name the problem is about, when there is one. */
  readonly parameter: string | undefined;
  constructor(message: string, options: InvalidParametersErrorOptions = {}) {
    const { parameter, ...rest } = options;
    super(message, rest);
    this.parameter = parameter;
  }
}

/** Options of {@link InvalidOptionError}. */
export interface InvalidOptionErrorOptions extends ErrorOptions {
  /** The option that was invalid. */
  option: string;
}

/**
 * An option passed to a Nexus function (not a tool argument from an LLM) was invalid: a
 * programming or configuration mistake. Thrown by {@link expectOption}.
 */
export class InvalidOptionError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/InvalidOptionError');
  static override readonly code = 'INVALID_OPTION';
  static override readonly kind = 'invalid_input';
  /** The option that was invalid. */
  readonly option: string;
  constructor(message: string, options: InvalidOptionErrorOptions) {
    const { option, ...rest } = options;
    super(message, rest);
    this.option = option;
  }
}

/** Options of {@link PathSecurityError}. */
export interface PathSecurityErrorOptions extends ErrorOptions {
  /** The path as the caller named it. */
  path: string;
  /** Why it was refused; the message is `Access to "<path>" is not allowed: <reason>`. */
  reason: string;
}

/** A path was refused by the sandbox: outside the allowed roots, blocked, or malformed. */
export class PathSecurityError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/PathSecurityError');
  static override readonly code = 'PATH_SECURITY';
  static override readonly kind = 'forbidden';
  readonly path: string;
  constructor(options: PathSecurityErrorOptions) {
    const { path, reason, ...rest } = options;
    super(`Access to "${path}" is not allowed: ${reason}`, rest);
    this.path = path;
  }
}

/** The permission policy refused an action (disabled tool, level too low, confirmation refused). */
export class PermissionDeniedError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/PermissionDeniedError');
  static override readonly code = 'PERMISSION_DENIED';
  static override readonly kind = 'forbidden';
}

/** Configuration (presets, services, schemas, settings) is invalid. */
export class ConfigError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/ConfigError');
  static override readonly code = 'CONFIG_INVALID';
  static override readonly kind = 'invalid_input';
}

/** Options of {@link TimeoutError}. */
export interface TimeoutErrorOptions extends ErrorOptions {
  /** The limit that passed, in ms. */
  timeoutMs: number;
}

/** Work ran past its time limit. */
export class TimeoutError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/TimeoutError');
  static override readonly code = 'TIMEOUT';
  static override readonly kind = 'timeout';
  readonly timeoutMs: number;
  constructor(message: string, options: TimeoutErrorOptions) {
    const { timeoutMs, ...rest } = options;
    super(message, rest);
    this.timeoutMs = timeoutMs;
  }
}

/** Work was cancelled through its `AbortSignal`. */
export class CancelledError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/core/CancelledError');
  static override readonly code = 'CANCELLED';
  static override readonly kind = 'cancelled';
  constructor(message = 'Cancelled.', options?: ErrorOptions) {
    super(message, options);
  }
}
