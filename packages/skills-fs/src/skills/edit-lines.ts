import { commitTextEdit } from '../commit-edit.js';
import { defineFileSkill } from '../file-sandbox.js';
import { applyLineEdit, type LineEdit } from '../text-edits.js';
import { loadTextFile } from '../text-file.js';

/** Arguments of `edit_lines`. */
export interface EditLinesArgs extends LineEdit {
  path: string;
  dry_run?: boolean;
}

/** JSON Schema of the line-range parameters, shared with `edit_file`. */
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

/** `edit_lines`: replace, insert or delete a range of lines by number. */
export const editLinesSkill = defineFileSkill<EditLinesArgs>({
  name: 'edit_lines',
  description:
    'Replace lines start_line…end_line of a file with new_content (line numbers as read_file shows them). Set end_line = start_line - 1 to insert before start_line; new_content "" deletes the lines. ' +
    "Keeps the file's line endings; atomic. dry_run=true shows the diff without writing. Line numbers shift after an edit: read the file again before the next one.",
  readOnly: false,
  destructive: true,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to edit.' },
      ...LINE_EDIT_PROPERTIES,
      dry_run: { type: 'boolean', default: false, description: 'Only show the diff.' },
    },
    required: ['path', 'start_line', 'new_content'],
    additionalProperties: false,
  },
  create:
    (files) =>
    async ({ path, dry_run: dryRun = false, ...edit }) => {
      const file = await loadTextFile(files, path);
      const text = applyLineEdit(file.text, edit, file.lineEnding);
      return commitTextEdit(files, file, text, { dryRun, what: describeLineEdit(edit) });
    },
});
