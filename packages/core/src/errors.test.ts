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
    [new InvalidParametersError('bad path', { parameter: 'path' }), InvalidParametersError, 'INVALID_PARAMETERS', 'invalid_input'],
    [new PathSecurityError({ path: '/etc', reason: 'outside' }), PathSecurityError, 'PATH_SECURITY', 'forbidden'],
    [new PermissionDeniedError('no'), PermissionDeniedError, 'PERMISSION_DENIED', 'forbidden'],
    [new ConfigError('bad'), ConfigError, 'CONFIG_INVALID', 'invalid_input'],
    [new TimeoutError('slow', { timeoutMs: 10 }), TimeoutError, 'TIMEOUT', 'timeout'],
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

  it('subclass isInstance does not match other subclasses, nor a family subclass with a core code', () => {
    expect(PathSecurityError.isInstance(new ConfigError('x'))).toBe(false);
    expect(SkillNotFoundError.isInstance(new Error('x'))).toBe(false);
    class StaleError extends NexusError {
      static override readonly brand: symbol = Symbol.for('test/StaleError');
    }
    const stale = new StaleError('stale', { code: 'PERMISSION_DENIED', kind: 'forbidden' });
    expect(PermissionDeniedError.isInstance(stale)).toBe(false);
    expect(StaleError.isInstance(stale)).toBe(true);
    expect(NexusError.isInstance(stale)).toBe(true);
    expect(StaleError.isInstance(new PermissionDeniedError('no'))).toBe(false);
  });

  it("recognises a subclass by its ancestors' brands, and a brandless subclass by instanceof only", () => {
    class GitError extends InvalidParametersError {
      static override readonly brand: symbol = Symbol.for('test/GitError');
    }
    class Unbranded extends NexusError {}
    expect(InvalidParametersError.isInstance(new GitError('x', { parameter: 'command' }))).toBe(true);
    expect(Unbranded.isInstance(new Unbranded('x'))).toBe(true);
    expect(Unbranded.isInstance(new NexusError('x'))).toBe(false);
  });

  it('takes code, kind, recoverable and data from its options, and ToolResult.fromError keeps them', () => {
    const error = new NexusError('conflict', { code: 'EDIT_CONFLICT', kind: 'invalid_input', recoverable: false, data: { path: 'a.txt' } });
    expect(error).toMatchObject({ code: 'EDIT_CONFLICT', kind: 'invalid_input', recoverable: false, data: { path: 'a.txt' } });
    expect(core.ToolResult.fromError(error).toJSON()).toEqual({
      success: false,
      output: '',
      error: 'conflict',
      kind: 'invalid_input',
      recoverable: false,
      data: { path: 'a.txt' },
    });
    expect(core.ToolResult.fromError(new ConfigError('bad')).recoverable).toBe(true);
  });

  it('recognises an error thrown by a duplicate copy of core (Symbol.for brands)', () => {
    const foreign = Object.assign(new Error('from another copy'), { code: 'PATH_SECURITY', kind: 'forbidden' });
    Object.defineProperty(foreign, Symbol.for('@nexus/core/NexusError'), { value: true });
    Object.defineProperty(foreign, Symbol.for('@nexus/core/PathSecurityError'), { value: true });
    expect(NexusError.isInstance(foreign)).toBe(true);
    expect(PathSecurityError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(foreign)).toBe(false);
    expect(core.ToolResult.fromError(foreign).kind).toBe('forbidden');
  });

  it('keeps the cause', () => {
    const cause = new Error('root');
    expect(new ConfigError('wrapped', { cause }).cause).toBe(cause);
  });
});

describe('expectOption and formatSchemaIssues', () => {
  it("throws an InvalidOptionError in execa's words, naming the option", () => {
    expect(() => core.expectOption(false, 'timeoutMs', 'a positive number', 'soon')).toThrow(
      'Expected `timeoutMs` to be a positive number, got "soon".',
    );
    const error = (() => {
      try {
        core.expectOption(core.isPositiveNumber(-1), 'timeoutMs', 'a positive number', -1);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(core.InvalidOptionError.isInstance(error) && error.option).toBe('timeoutMs');
    expect(() => core.expectOption(true, 'x', 'y', 1)).not.toThrow();
    expect(core.describeValue([1])).toBe('an array');
    expect(core.describeValue(null)).toBe('null');
  });

  it('formats zod-shaped issues as one line naming each field', () => {
    expect(
      core.formatSchemaIssues([
        { path: ['instances', 'work', 'url'], message: 'Expected an absolute http or https URL' },
        { path: [], message: 'Expected an object', code: 'invalid_type' },
        { path: ['tools'], message: 'Unrecognized keys', code: 'unrecognized_keys', keys: ['colour'] },
      ]),
    ).toBe('`instances.work.url`: Expected an absolute http or https URL; Expected an object; `tools.colour` is not a known setting');
  });
});
