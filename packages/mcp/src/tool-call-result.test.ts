import { ToolResult } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { toCallToolResult } from './tool-call-result.js';

describe('toCallToolResult', () => {
  it('puts the output in a text block and object data in structuredContent', () => {
    expect(toCallToolResult(ToolResult.ok('3 files', { count: 3 }))).toEqual({
      content: [{ type: 'text', text: '3 files' }],
      structuredContent: { count: 3 },
    });
  });

  it('marks a failure with isError and carries its message', () => {
    expect(toCallToolResult(ToolResult.fail('No such file: a.txt', 'not_found'))).toEqual({
      content: [{ type: 'text', text: 'No such file: a.txt' }],
      isError: true,
    });
  });

  it('leaves arrays, strings and null out of structuredContent, which MCP only allows to be an object', () => {
    for (const data of [[1, 2], 'text', null, 7])
      expect(toCallToolResult(ToolResult.ok('x', data))).not.toHaveProperty('structuredContent');
  });
});
