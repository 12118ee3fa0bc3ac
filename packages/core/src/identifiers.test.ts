import { describe, expect, it } from 'vitest';
import {
  convertLineEndings,
  detectLineEnding,
  InvalidParametersError,
  isValidAgentId,
  isValidToolName,
  validateAgentId,
  validateToolName,
} from './index.js';

describe('tool names', () => {
  it.each(['read_file', 'shell_UNSAFE', 'gitlab-mr', 'a', 'x'.repeat(64)])('accepts %s', (name) =>
    expect(isValidToolName(name)).toBe(true),
  );
  it.each(['', 'x'.repeat(65), 'read file', 'read.file', 'rm;ls', 'ünïcode', 42])('refuses %s', (name) => {
    expect(isValidToolName(name)).toBe(false);
    expect(() => validateToolName(name)).toThrow(InvalidParametersError);
  });
});

describe('agent ids', () => {
  it.each(['worker-1', 'a', 'Agent_2.review', '.1', '.temp-worker', 'x'.repeat(62), `.${'x'.repeat(62)}`])('accepts %s', (id) =>
    expect(validateAgentId(id)).toBe(id),
  );
  it.each(['', '.', '..', '../etc', '.-hidden', '-flag', 'a/b', 'a\\b', 'a..b', 'x'.repeat(63), 'a b', null])(
    'refuses %s naming agent_id',
    (id) => {
      expect(isValidAgentId(id)).toBe(false);
      expect(() => validateAgentId(id)).toThrow(/agent_id/);
    },
  );
});

describe('line endings', () => {
  it('detects the dominant ending', () => {
    expect(detectLineEnding('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(detectLineEnding('a\nb\n')).toBe('\n');
    expect(detectLineEnding('a\rb\rc')).toBe('\r');
    expect(detectLineEnding('no breaks')).toBe('\n');
    expect(detectLineEnding('')).toBe('\n');
  });

  it('converts every style to the requested ending', () => {
    expect(convertLineEndings('a\r\nb\nc\rd', '\r\n')).toBe('a\r\nb\r\nc\r\nd');
    expect(convertLineEndings('a\r\nb\r\n', '\n')).toBe('a\nb\n');
  });
});
