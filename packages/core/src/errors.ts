import type { ToolErrorKind } from './tool-result.js';

const NEXUS_ERROR = Symbol.for('@nexus/core/NexusError');

/** String codes carried by every {@link NexusError}; stable across versions. */
export type NexusErrorCode =
  | 'NEXUS_ERROR'
  | 'SKILL_NOT_FOUND'
  | 'NOT_FOUND'
  | 'SKILL_EXECUTION_FAILED'
  | 'INVALID_PARAMETERS'
  | 'PATH_SECURITY'
  | 'PERMISSION_DENIED'
  | 'CONFIG_INVALID'
  | 'TIMEOUT'
  | 'CANCELLED';

/** Options accepted by every Nexus error constructor. */
export interface NexusErrorOptions {
  cause?: unknown;
}

/**
 * Base class of every error Nexus throws. Carries a string `code` and the `ToolResult` kind it
 * maps to. `NexusError.isInstance` recognises errors from any copy of `@nexus/core`, which
 * `instanceof` does not when a project ends up with two copies installed.
 */
export class NexusError extends Error {
  /** Stable, machine-readable code. */
  readonly code: NexusErrorCode;
  /** The `ToolResult` kind a skill reports when this error ends its run. */
  readonly kind: ToolErrorKind;

  constructor(
    message: string,
    code: NexusErrorCode = 'NEXUS_ERROR',
    kind: ToolErrorKind = 'execution_failed',
    options: NexusErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.kind = kind;
    Object.defineProperty(this, NEXUS_ERROR, { value: true });
  }

  /** True for a `NexusError` (or subclass) from any copy of `@nexus/core`. */
  static isInstance(value: unknown): value is NexusError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[NEXUS_ERROR] === true;
  }
}

function hasCode(value: unknown, code: NexusErrorCode): boolean {
  return NexusError.isInstance(value) && value.code === code;
}

/** A tool name was looked up that the registry does not know. */
export class SkillNotFoundError extends NexusError {
  readonly skillName: string;
  constructor(skillName: string, options?: NexusErrorOptions) {
    super(`Unknown skill "${skillName}".`, 'SKILL_NOT_FOUND', 'not_found', options);
    this.skillName = skillName;
  }
  static override isInstance(value: unknown): value is SkillNotFoundError {
    return hasCode(value, 'SKILL_NOT_FOUND');
  }
}

/** A file, directory or other resource a skill needs does not exist. */
export class NotFoundError extends NexusError {
  constructor(message: string, options?: NexusErrorOptions) {
    super(message, 'NOT_FOUND', 'not_found', options);
  }
  static override isInstance(value: unknown): value is NotFoundError {
    return hasCode(value, 'NOT_FOUND');
  }
}

/** A skill failed while running. */
export class SkillExecutionError extends NexusError {
  readonly skillName: string;
  readonly reason: string;
  constructor(skillName: string, reason: string, options?: NexusErrorOptions) {
    super(`${skillName} failed: ${reason}`, 'SKILL_EXECUTION_FAILED', 'execution_failed', options);
    this.skillName = skillName;
    this.reason = reason;
  }
  static override isInstance(value: unknown): value is SkillExecutionError {
    return hasCode(value, 'SKILL_EXECUTION_FAILED');
  }
}

/** Arguments did not match a skill's parameters. The message names the parameter. */
export class InvalidParametersError extends NexusError {
  /** Parameter name the problem is about, when there is one. */
  readonly parameter: string | undefined;
  constructor(message: string, parameter?: string, options?: NexusErrorOptions) {
    super(message, 'INVALID_PARAMETERS', 'invalid_input', options);
    this.parameter = parameter;
  }
  static override isInstance(value: unknown): value is InvalidParametersError {
    return hasCode(value, 'INVALID_PARAMETERS');
  }
}

/** A path was refused by the sandbox: outside the allowed roots, blocked, or malformed. */
export class PathSecurityError extends NexusError {
  readonly path: string;
  constructor(path: string, reason: string, options?: NexusErrorOptions) {
    super(`Access to "${path}" is not allowed: ${reason}`, 'PATH_SECURITY', 'forbidden', options);
    this.path = path;
  }
  static override isInstance(value: unknown): value is PathSecurityError {
    return hasCode(value, 'PATH_SECURITY');
  }
}

/** The permission policy refused an action (disabled tool, level too low, confirmation refused). */
export class PermissionDeniedError extends NexusError {
  constructor(message: string, options?: NexusErrorOptions) {
    super(message, 'PERMISSION_DENIED', 'forbidden', options);
  }
  static override isInstance(value: unknown): value is PermissionDeniedError {
    return hasCode(value, 'PERMISSION_DENIED');
  }
}

/** Configuration (presets, services, schemas, settings) is invalid. */
export class ConfigError extends NexusError {
  constructor(message: string, options?: NexusErrorOptions) {
    super(message, 'CONFIG_INVALID', 'invalid_input', options);
  }
  static override isInstance(value: unknown): value is ConfigError {
    return hasCode(value, 'CONFIG_INVALID');
  }
}

/** Work ran past its time limit. */
export class TimeoutError extends NexusError {
  readonly timeoutMs: number;
  constructor(message: string, timeoutMs: number, options?: NexusErrorOptions) {
    super(message, 'TIMEOUT', 'timeout', options);
    this.timeoutMs = timeoutMs;
  }
  static override isInstance(value: unknown): value is TimeoutError {
    return hasCode(value, 'TIMEOUT');
  }
}

/** Work was cancelled through its `AbortSignal`. */
export class CancelledError extends NexusError {
  constructor(message = 'Cancelled.', options?: NexusErrorOptions) {
    super(message, 'CANCELLED', 'cancelled', options);
  }
  static override isInstance(value: unknown): value is CancelledError {
    return hasCode(value, 'CANCELLED');
  }
}
