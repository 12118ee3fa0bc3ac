import { describe, expect, it } from 'vitest';
import * as core from './index.js';

const {
  NexusError,
  SkillNotFoundError,
  PathSecurityError,
  InvalidParametersError,
  ConfigError,
  PermissionDeniedError,
  SkillExecutionError,
  TimeoutError,
  CancelledError,
  NotFoundError,
} = core;

describe('errors', () => {
  const cases = [
    [new SkillNotFoundError('nope'), SkillNotFoundError, 'SKILL_NOT_FOUND', 'not_found'],
    [new NotFoundError('missing'), NotFoundError, 'NOT_FOUND', 'not_found'],
    [new SkillExecutionError('git', 'exit 1'), SkillExecutionError, 'SKILL_EXECUTION_FAILED', 'execution_failed'],
    [new InvalidParametersError('bad path', 'path'), InvalidParametersError, 'INVALID_PARAMETERS', 'invalid_input'],
    [new PathSecurityError('/etc', 'outside'), PathSecurityError, 'PATH_SECURITY', 'forbidden'],
    [new PermissionDeniedError('no'), PermissionDeniedError, 'PERMISSION_DENIED', 'forbidden'],
    [new ConfigError('bad'), ConfigError, 'CONFIG_INVALID', 'invalid_input'],
    [new TimeoutError('slow', 10), TimeoutError, 'TIMEOUT', 'timeout'],
    [new CancelledError(), CancelledError, 'CANCELLED', 'cancelled'],
  ] as const;

  it.each(cases)('%s has its code, kind, name and is recognised', (error, Class, code, kind) => {
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(error.kind).toBe(kind);
    expect(error.name).toBe(Class.name);
    expect(NexusError.isInstance(error)).toBe(true);
    expect(Class.isInstance(error)).toBe(true);
  });

  it('subclass isInstance does not match other subclasses', () => {
    expect(PathSecurityError.isInstance(new ConfigError('x'))).toBe(false);
    expect(SkillNotFoundError.isInstance(new Error('x'))).toBe(false);
  });

  it('recognises an error thrown by a duplicate copy of core (Symbol.for marker)', () => {
    const foreign = Object.assign(new Error('from another copy'), { code: 'PATH_SECURITY', kind: 'forbidden' });
    Object.defineProperty(foreign, Symbol.for('@nexus/core/NexusError'), { value: true });
    expect(NexusError.isInstance(foreign)).toBe(true);
    expect(PathSecurityError.isInstance(foreign)).toBe(true);
    expect(core.ToolResult.fromError(foreign).kind).toBe('forbidden');
  });

  it('keeps the cause', () => {
    const cause = new Error('root');
    expect(new ConfigError('wrapped', { cause }).cause).toBe(cause);
  });
});
