import { describe, expect, it } from 'vitest';
import { importedToolNames } from './imported-tool-name.js';

/** Asserts the names are valid, distinct tool names, and returns them. */
function validDistinct(names: string[]): string[] {
  for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  expect(new Set(names).size).toBe(names.length);
  return names;
}

describe('importedToolNames against a server choosing names that collide', () => {
  it('gives a name the server lists twice two names', () => {
    const [first, second] = validDistinct(importedToolNames('s', ['run', 'run']));
    expect(first).toBe('mcp__s__run');
    expect(second).toMatch(/^mcp__s__run_[0-9a-f]{6}$/);
  });

  it('gives a tool named as another tool’s hashed name a name of its own, in any order', () => {
    const [hashed] = importedToolNames('s', ['do.it', 'do_it']);
    const squatter = (hashed as string).slice('mcp__s__'.length);
    for (const tools of [
      ['do.it', 'do_it', squatter],
      [squatter, 'do.it', 'do_it'],
      ['do_it', squatter, 'do.it'],
    ]) {
      validDistinct(importedToolNames('s', tools));
    }
  });

  it('keeps long names that share their first 64 characters apart, and the same whatever else is listed', () => {
    const long = (end: string) => `${'x'.repeat(70)}${end}`;
    const names = validDistinct(importedToolNames('s', [long('a'), long('b'), long('a.'), long('a_')]));
    for (const name of names) expect(name).toHaveLength(64);
    expect(importedToolNames('s', [long('b')])).toEqual([names[1]]);
  });
});
