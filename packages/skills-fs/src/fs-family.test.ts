import { InvalidOptionError, ServiceContainer } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { expect, test } from 'vitest';
import { resolveFileSkillOptions } from './file-skill-options.js';
import { fsSkills } from './fs-family.js';

const READ_ONLY = ['read_file', 'tail', 'file_info', 'list_directory', 'glob', 'grep'];
const DESTRUCTIVE = ['write_file', 'edit_file', 'edit_lines', 'regex_replace', 'patch', 'copy_file', 'rename'];

test("fsSkills holds the fifteen file skills with the seeds' names, flags and parameters", () => {
  expect(fsSkills.name).toBe('fs');
  expect(fsSkills.skills.map((spec) => spec.name)).toEqual([
    ...READ_ONLY,
    ...DESTRUCTIVE.slice(0, 3),
    'append_file',
    ...DESTRUCTIVE.slice(3, 6),
    'mkdir',
    'rename',
  ]);
  for (const spec of fsSkills.skills) {
    expect(spec.readOnly, spec.name).toBe(READ_ONLY.includes(spec.name));
    expect(spec.destructive, spec.name).toBe(DESTRUCTIVE.includes(spec.name));
    expect(spec.minimumLevel, spec.name).toBeUndefined();
  }
  const parameters = Object.fromEntries(fsSkills.skills.map((spec) => [spec.name, Object.keys(spec.parameters.properties ?? {})]));
  expect(parameters).toMatchObject({
    read_file: ['path', 'offset', 'limit'],
    tail: ['path', 'lines'],
    list_directory: ['path', 'all', 'long'],
    glob: ['pattern', 'path', 'max_results', 'exclude'],
    grep: ['pattern', 'path', 'recursive', 'ignore_case', 'max_matches', 'include', 'context'],
    edit_file: expect.arrayContaining([
      'old_string',
      'new_string',
      'replace_all',
      'edits',
      'start_line',
      'end_line',
      'new_content',
      'dry_run',
    ]),
    edit_lines: expect.arrayContaining(['start_line', 'end_line', 'new_content']),
    append_file: ['path', 'content', 'newline'],
    regex_replace: expect.arrayContaining(['pattern', 'replacement', 'count', 'ignore_case', 'multiline', 'dotall']),
    patch: expect.arrayContaining(['target', 'diff', 'diff_file', 'mode', 'dry_run']),
    copy_file: ['source', 'destination', 'overwrite'],
    rename: ['source', 'destination', 'overwrite'],
  });
});

test('a registry offers every file skill in every definition format without instantiating any', () => {
  const { services, registry } = createTestAgent({ cwd: '/tmp', families: [fsSkills] });
  expect(registry.getDefinitions()).toHaveLength(15);
  expect(registry.getDefinitionsForPermissions(services.getPermissions()!, { format: 'anthropic' }).map((tool) => tool.name)).toContain(
    'grep',
  );
});

test('settings are validated through expectOption, with messages that name the option', () => {
  const services = new ServiceContainer();
  expect(resolveFileSkillOptions(services)).toMatchObject({ regexTimeoutMs: 5_000, searchTimeoutMs: 20_000, maxReadBytes: 262_144 });
  services.register('fileSkillOptions', { regexTimeoutMs: -1 });
  expect(() => resolveFileSkillOptions(services)).toThrow('Expected `regexTimeoutMs` to be a positive integer, got -1.');
  expect(() => resolveFileSkillOptions(services)).toThrow(InvalidOptionError);
  services.register('fileSkillOptions', { maxReadBytes: 1.5 });
  expect(() => resolveFileSkillOptions(services)).toThrow('Expected `maxReadBytes` to be a positive integer, got 1.5.');
  services.register('fileSkillOptions', { grepEngine: 'fast' as never });
  expect(() => resolveFileSkillOptions(services)).toThrow('Expected `grepEngine` to be one of auto, ripgrep, builtin, got "fast".');
});
