import { InvalidParametersError, type LineEnding } from '@nexus/core';
import { inFileLineEndings } from './text-file.js';

/** One string replacement, as `edit_file` takes it. */
export interface StringEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + search.length)) count++;
  return count;
}

/**
 * Applies one replacement to `text`. `old_string` is matched as given, or with its line breaks
 * in the file's style; `new_string` is written in the file's style. An `old_string` that is
 * missing, or found several times without `replace_all`, is refused with the number of matches.
 * `parameter` names the argument in errors (`old_string` or `edits[2].old_string`).
 */
export function applyStringEdit(text: string, edit: StringEdit, ending: LineEnding, parameter: string): { text: string; replaced: number } {
  const { old_string: oldString, new_string: newString, replace_all: replaceAll = false } = edit;
  if (oldString === '') throw new InvalidParametersError(`Expected \`${parameter}\` to be non-empty text to find, got "".`, { parameter });
  let search = oldString;
  let count = countOccurrences(text, search);
  if (count === 0 && ending !== '\n' && oldString.includes('\n')) {
    search = inFileLineEndings(oldString, ending);
    count = countOccurrences(text, search);
  }
  if (count === 0) {
    throw new InvalidParametersError(
      `\`${parameter}\` was not found in the file. It must match the file exactly, whitespace and indentation included; read the file again and copy the text.`,
      { parameter },
    );
  }
  if (count > 1 && !replaceAll) {
    throw new InvalidParametersError(
      `\`${parameter}\` matches ${count} places in the file. Add surrounding lines to make it unique, or set replace_all=true to change all ${count}.`,
      { parameter },
    );
  }
  const replacement = inFileLineEndings(newString, ending);
  if (search === replacement) return { text, replaced: 0 };
  const result = replaceAll ? text.split(search).join(replacement) : text.replace(search, () => replacement);
  return { text: result, replaced: count };
}

/** A line-range replacement, as `edit_lines` takes it. */
export interface LineEdit {
  start_line: number;
  end_line?: number;
  new_content: string;
}

/** JSON Schema of the line-range parameters, as `edit_lines` and `edit_file` take them. */
export const LINE_EDIT_PROPERTIES = {
  start_line: { type: 'integer', minimum: 1, description: 'First line to replace (1-based, as read_file numbers them).' },
  end_line: {
    type: 'integer',
    minimum: 0,
    description: 'Last line to replace, inclusive (default: start_line). start_line - 1 inserts before start_line.',
  },
  new_content: { type: 'string', description: 'Replacement text for those lines ("" deletes them).' },
} as const;

/** Describes a line edit for the result, e.g. `lines 3–5 replaced`. */
export function describeLineEdit(edit: LineEdit): string {
  const end = edit.end_line ?? edit.start_line;
  if (end < edit.start_line) return `inserted before line ${edit.start_line}`;
  const range = end === edit.start_line ? `line ${edit.start_line}` : `lines ${edit.start_line}–${end}`;
  return edit.new_content === '' ? `${range} deleted` : `${range} replaced`;
}

/**
 * Replaces lines `start_line … end_line` (1-based, inclusive; `end_line` defaults to
 * `start_line`) with `new_content`, written in the file's line-ending style. `end_line =
 * start_line - 1` inserts before `start_line` without removing anything; `start_line` one past
 * the last line appends. An empty `new_content` deletes the lines.
 */
export function applyLineEdit(text: string, edit: LineEdit, ending: LineEnding): string {
  const { start_line: start, new_content: content } = edit;
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const end = edit.end_line ?? (start > lines.length ? start - 1 : start);
  if (start > lines.length + 1) {
    throw new InvalidParametersError(
      `Expected \`start_line\` to be at most ${lines.length + 1} (the file has ${lines.length} lines), got ${start}.`,
      { parameter: 'start_line' },
    );
  }
  if (end < start - 1 || end > lines.length) {
    throw new InvalidParametersError(`Expected \`end_line\` to be between ${start - 1} and ${lines.length}, got ${end}.`, {
      parameter: 'end_line',
    });
  }
  const before = lines.slice(0, start - 1);
  const after = lines.slice(end);
  let inserted = inFileLineEndings(content, ending);
  const lastReplaced = end >= start ? lines[end - 1] : undefined;
  const needsBreak = after.length > 0 || lastReplaced?.endsWith('\n') || (end < start && before.length > 0);
  if (inserted !== '' && needsBreak && !inserted.endsWith('\n') && !inserted.endsWith('\r')) inserted += ending;
  const previous = before[before.length - 1];
  if (inserted !== '' && previous !== undefined && !previous.endsWith('\n')) before[before.length - 1] = previous + ending;
  return before.join('') + inserted + after.join('');
}
