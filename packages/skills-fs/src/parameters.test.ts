import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fsSkills } from './index.js';
import { createWorkspace, type Workspace } from './workspace-fixture.js';

/** Valid arguments of every skill, against the workspace below. */
const VALID: Record<string, Record<string, unknown>> = {
  read_file: { path: 'a.txt', offset: 1, limit: 5 },
  tail: { path: 'a.txt', lines: 2 },
  file_info: { path: 'a.txt' },
  list_directory: { path: '.', all: false, long: false },
  glob: { pattern: '*.txt', path: '.', max_results: 10, exclude: ['b.txt'] },
  grep: { pattern: 'one', path: '.', recursive: true, ignore_case: false, max_matches: 5, include: '*.txt', context: 1 },
  write_file: { path: 'w.txt', content: 'x' },
  edit_file: { path: 'a.txt', old_string: 'one', new_string: 'ONE', replace_all: false, dry_run: true },
  edit_lines: { path: 'a.txt', start_line: 1, end_line: 1, new_content: 'x', dry_run: true },
  append_file: { path: 'a.txt', content: 'x', newline: true },
  regex_replace: {
    path: 'a.txt',
    pattern: 'o',
    replacement: '0',
    count: 1,
    ignore_case: false,
    multiline: false,
    dotall: false,
    dry_run: true,
  },
  patch: { target: 'a.txt', diff: '@@ -1 +1 @@\n-one\n+ONE\n', mode: 'strict', dry_run: true },
  copy_file: { source: 'a.txt', destination: 'c.txt', overwrite: false },
  mkdir: { path: 'newdir' },
  rename: { source: 'b.txt', destination: 'r.txt', overwrite: false },
};

/** A value of the wrong type for a schema, one that the registry's coercion cannot rescue. */
function wrongType(schema: Record<string, unknown>): unknown {
  if (schema.type === 'string' || schema.anyOf) return { not: 'a string' };
  if (schema.type === 'integer') return 'many';
  if (schema.type === 'boolean') return 'perhaps';
  if (schema.type === 'array') return 42;
  return null;
}

/** Values outside a schema's bounds or enum. */
function outOfRange(schema: Record<string, unknown>): unknown[] {
  const values: unknown[] = [];
  if (typeof schema.minimum === 'number') values.push(schema.minimum - 1);
  if (typeof schema.maximum === 'number') values.push(schema.maximum + 1);
  if (schema.type === 'integer') values.push(1.5);
  if (Array.isArray(schema.enum)) values.push('bogus');
  if (typeof schema.minLength === 'number' && schema.minLength > 0) values.push('');
  if (typeof schema.minItems === 'number') values.push([]);
  return values;
}

const cases: [string, string, string, Record<string, unknown>][] = [];
for (const spec of fsSkills.skills) {
  const valid = VALID[spec.name] as Record<string, unknown>;
  const properties = (spec.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const name of spec.parameters.required ?? []) {
    const { [name]: _, ...rest } = valid;
    cases.push([spec.name, name, 'missing', rest]);
  }
  for (const [name, schema] of Object.entries(properties)) {
    cases.push([spec.name, name, 'wrong type', { ...valid, [name]: wrongType(schema) }]);
    for (const value of outOfRange(schema))
      cases.push([spec.name, name, `out of range (${JSON.stringify(value)})`, { ...valid, [name]: value }]);
  }
  cases.push([spec.name, 'bogus_parameter', 'unknown parameter', { ...valid, bogus_parameter: 1 }]);
}

let workspace: Workspace;
beforeAll(async () => {
  workspace = await createWorkspace({ 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\n' });
});
afterAll(() => workspace.dir.cleanup());

describe('every parameter of every skill is validated through the registry', () => {
  test('the valid arguments used below succeed', async () => {
    for (const [tool, args] of Object.entries(VALID)) {
      const result = await workspace.call(tool, args);
      expect(result.success, `${tool}: ${result.error}`).toBe(true);
    }
    expect(Object.keys(VALID).sort()).toEqual(fsSkills.skills.map((spec) => spec.name).sort());
  });

  test.each(cases)('%s: `%s` %s → invalid_input naming it', async (tool, parameter, _problem, args) => {
    const result = await workspace.call(tool, args);
    expect(result.kind, result.text).toBe('invalid_input');
    expect(result.error).toContain(`\`${parameter}\``);
  });
});

describe('checks the schema cannot express also name the parameter', () => {
  let own: Workspace;
  beforeAll(async () => {
    own = await createWorkspace({ 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\n', 'bin.dat': new Uint8Array([1, 0, 2]) });
  });
  afterAll(() => own.dir.cleanup());
  test.each([
    ['edit_file', { path: 'a.txt' }, 'old_string'],
    ['edit_file', { path: 'a.txt', old_string: 'one' }, 'new_string'],
    ['edit_file', { path: 'a.txt', old_string: 'one', new_string: 'x', start_line: 1, new_content: 'y' }, 'start_line'],
    ['edit_file', { path: 'a.txt', start_line: 1 }, 'new_content'],
    ['edit_file', { path: 'a.txt', old_string: '', new_string: 'x' }, 'old_string'],
    [
      'edit_file',
      {
        path: 'a.txt',
        edits: [
          { old_string: 'one', new_string: '1' },
          { old_string: 'nope', new_string: '2' },
        ],
      },
      'edits[1].old_string',
    ],
    ['edit_lines', { path: 'a.txt', start_line: 9, new_content: 'x' }, 'start_line'],
    ['edit_lines', { path: 'a.txt', start_line: 2, end_line: 7, new_content: 'x' }, 'end_line'],
    ['patch', { target: 'a.txt' }, 'diff'],
    ['patch', { target: 'a.txt', diff: '@@ -1 +1 @@\n-one\n+1\n', diff_file: 'b.txt' }, 'diff'],
    ['patch', { target: 'a.txt', diff: 'not a diff' }, 'diff'],
    ['regex_replace', { path: 'a.txt', pattern: '(', replacement: 'x' }, 'pattern'],
    ['grep', { pattern: '[', path: '.' }, 'pattern'],
    ['glob', { pattern: '../*' }, 'pattern'],
    ['copy_file', { source: '.', destination: 'x' }, 'source'],
    ['copy_file', { source: 'a.txt', destination: 'b.txt' }, 'destination'],
    ['rename', { source: 'a.txt', destination: 'b.txt' }, 'destination'],
    ['read_file', { path: '.' }, 'path'],
    ['patch', { target: '', diff: '@@ -1 +1 @@\n-one\n+1\n' }, 'target'],
    ['patch', { target: 'bin.dat', diff: '@@ -1 +1 @@\n-one\n+1\n' }, 'target'],
    ['copy_file', { source: '', destination: 'x' }, 'source'],
    ['copy_file', { source: 'a.txt', destination: '' }, 'destination'],
    ['copy_file', { source: 'a.txt', destination: 'b.txt/x' }, 'destination'],
    ['rename', { source: '', destination: 'x' }, 'source'],
    ['rename', { source: 'a.txt', destination: '' }, 'destination'],
    ['rename', { source: 'a.txt', destination: 'b.txt/x' }, 'destination'],
  ] as const)('%s %j → invalid_input on %s', async (tool, args, parameter) => {
    const result = await own.call(tool, args);
    expect(result.kind, result.text).toBe('invalid_input');
    expect(result.error).toContain(`\`${parameter}\``);
  });
});
