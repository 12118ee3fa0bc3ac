import { describe, expect, it } from 'vitest';
import { CancelledError, NexusError, PathSecurityError, TOOL_ERROR_KINDS, ToolResult } from './index.js';

describe('ToolResult', () => {
  it('ok carries output and data and is a success', () => {
    const result = ToolResult.ok('done', { count: 2 });
    expect(result.success).toBe(true);
    expect(result).toMatchObject({ output: 'done', error: '', data: { count: 2 } });
    expect(result.kind).toBeUndefined();
    expect(result.text).toBe('done');
  });

  it('fail carries a kind, defaults recoverability by kind, and never reads as success', () => {
    expect(ToolResult.fail('bad', 'invalid_input')).toMatchObject({
      success: false,
      error: 'bad',
      kind: 'invalid_input',
      recoverable: true,
      output: '',
    });
    expect(ToolResult.fail('no', 'forbidden').recoverable).toBe(false);
    expect(ToolResult.fail('')).toMatchObject({ success: false, error: 'Failed (execution_failed).' });
    expect(ToolResult.fail('x', 'timeout', { recoverable: false, data: [1] })).toMatchObject({ recoverable: false, data: [1] });
  });

  it('round-trips through its JSON form for every kind', () => {
    for (const kind of TOOL_ERROR_KINDS) {
      const result = ToolResult.fail(`failed: ${kind}`, kind, { data: { kind } });
      const copy = ToolResult.fromJSON(JSON.parse(JSON.stringify(result)));
      expect(copy.toJSON()).toEqual(result.toJSON());
    }
    expect(JSON.parse(JSON.stringify(ToolResult.ok('hi', { a: null })))).toEqual({
      success: true,
      output: 'hi',
      error: '',
      data: { a: null },
    });
  });

  it('is immutable', () => {
    const result = ToolResult.ok('x');
    expect(() => Object.assign(result, { error: 'tampered' })).toThrow(TypeError);
  });

  it('fromError keeps NexusError kinds and maps aborts to cancelled', () => {
    expect(ToolResult.fromError(new PathSecurityError({ path: '/etc/passwd', reason: 'outside' })).kind).toBe('forbidden');
    expect(ToolResult.fromError(new CancelledError()).kind).toBe('cancelled');
    expect(ToolResult.fromError(Object.assign(new Error('aborted'), { name: 'AbortError' })).kind).toBe('cancelled');
    expect(ToolResult.fromError('plain string', 'read_file')).toMatchObject({ kind: 'execution_failed', error: 'read_file: plain string' });
  });

  it('isInstance recognises results from another copy of core', () => {
    const foreign = Object.defineProperty({ output: 'x', error: '' }, Symbol.for('@nexus/core/ToolResult'), { value: true });
    expect(ToolResult.isInstance(foreign)).toBe(true);
    expect(ToolResult.isInstance({ output: 'x', error: '' })).toBe(false);
    expect(NexusError.isInstance(ToolResult.ok('x'))).toBe(false);
  });
});
