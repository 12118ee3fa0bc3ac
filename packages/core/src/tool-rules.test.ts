import { describe, expect, it } from 'vitest';
import { findCeilingViolations, isPathParameter, resolvePreset, type ToolRule } from './index.js';

describe('tool rules in a policy', () => {
  it('are kept by resolvePreset as plain data, copied', () => {
    const rules: ToolRule[] = [{ tool: 'git', match: { command: 'push *' }, decision: 'deny', reason: 'no pushes' }];
    const permissions = resolvePreset('trusted', { cwd: '/work', rules });
    expect(permissions.rules).toEqual(rules);
    expect(permissions.rules).not.toBe(rules);
    expect(JSON.parse(JSON.stringify(permissions)).rules).toEqual(rules);
    expect(resolvePreset('trusted', { cwd: '/work' })).not.toHaveProperty('rules');
  });

  it("bind a child: it must start with its parent's rules", () => {
    const deny: ToolRule = { tool: 'git', match: { command: 'push *' }, decision: 'deny' };
    const parent = resolvePreset('trusted', { cwd: '/work', rules: [deny] });
    const exception: ToolRule = { tool: 'git', match: { command: 'push origin *' }, decision: 'allow' };
    expect(findCeilingViolations(parent, resolvePreset('sandboxed', { cwd: '/work' }))).toEqual([
      "rules do not begin with the parent's rules",
    ]);
    expect(findCeilingViolations(parent, resolvePreset('sandboxed', { cwd: '/work', rules: [exception, deny] }))).toEqual([
      "rules do not begin with the parent's rules",
    ]);
    expect(findCeilingViolations(parent, resolvePreset('sandboxed', { cwd: '/work', rules: [deny, exception] }))).toEqual([]);
  });

  it('name path arguments by their names', () => {
    for (const name of ['path', 'source', 'destination', 'target', 'cwd', 'diff_file', 'output_path'])
      expect(isPathParameter(name), name).toBe(true);
    for (const name of ['command', 'content', 'pattern', 'message']) expect(isPathParameter(name), name).toBe(false);
  });
});
