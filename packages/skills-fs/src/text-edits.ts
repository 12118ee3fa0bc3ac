import { InvalidParametersError, type LineEnding } from '@nexus/core';
import { type LengthLimit, replaceEvery, TextBuilder } from './text-builder.js';
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
 * `parameter` names the argument in errors (`old_string` or `edits[2].old_string`); a result
 * longer than `limit` is refused with the limit's error.
 */
export function applyStringEdit(
  text: string,
  edit: StringEdit,
  ending: LineEnding,
  parameter: string,
  limit?: LengthLimit,
): { text: string; replaced: number } {
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
  return { text: replaceEvery(text, search, replacement, limit), replaced: count };
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

/** Where line `line` (0-based) of `text` starts, or `undefined` when the text has fewer lines; line `count` starts at the end. */
function lineStart(text: string, line: number, from = 0, fromLine = 0): number | undefined {
  let position = from;
  for (let current = fromLine; current < line; current++) {
    if (position >= text.length) return undefined;
    const next = text.indexOf('\n', position);
    position = next === -1 ? text.length : next + 1;
  }
  return position;
}

/** Lines in `text`, a last line without a line break included. */
function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);
}

/**
 * Replaces lines `start_line … end_line` (1-based, inclusive; `end_line` defaults to
 * `start_line`) with `new_content`, written in the file's line-ending style. `end_line =
 * start_line - 1` inserts before `start_line` without removing anything; `start_line` one past
 * the last line appends. An empty `new_content` deletes the lines. Works on offsets in the text
 * (no array of lines), so memory stays a small multiple of the file; a result longer than
 * `limit` is refused with the limit's error.
 */
export function applyLineEdit(text: string, edit: LineEdit, ending: LineEnding, limit?: LengthLimit): string {
  const { start_line: start, new_content: content } = edit;
  const from = lineStart(text, start - 1);
  if (from === undefined) {
    const lines = countLines(text);
    throw new InvalidParametersError(`Expected \`start_line\` to be at most ${lines + 1} (the file has ${lines} lines), got ${start}.`, {
      parameter: 'start_line',
    });
  }
  const appending = from === text.length;
  const end = edit.end_line ?? (appending ? start - 1 : start);
  const to = end < start - 1 ? undefined : lineStart(text, end, from, start - 1);
  if (to === undefined) {
    const lines = countLines(text);
    throw new InvalidParametersError(`Expected \`end_line\` to be between ${start - 1} and ${lines}, got ${end}.`, {
      parameter: 'end_line',
    });
  }
  let inserted = inFileLineEndings(content, ending);
  const lastReplacedEndsLine = end >= start && text.charCodeAt(to - 1) === 10;
  const needsBreak = to < text.length || lastReplacedEndsLine || (end < start && from > 0);
  if (inserted !== '' && needsBreak && !inserted.endsWith('\n') && !inserted.endsWith('\r')) inserted += ending;
  const result = new TextBuilder(limit);
  result.push(text.slice(0, from));
  if (inserted !== '' && from > 0 && text.charCodeAt(from - 1) !== 10) result.push(ending);
  result.push(inserted);
  result.push(text.slice(to));
  return result.toString();
}
