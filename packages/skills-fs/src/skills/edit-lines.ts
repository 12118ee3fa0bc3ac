import { editTextFile } from '../commit-edit.js';
import { defineFileSkill } from '../define-file-skill.js';
import { applyLineEdit, describeLineEdit, LINE_EDIT_PROPERTIES, type LineEdit } from '../text-edits.js';

/** Arguments of `edit_lines`. */
export interface EditLinesArguments extends LineEdit {
  path: string;
  dry_run?: boolean;
}

/** `edit_lines`: replace, insert or delete a range of lines by number. */
export const editLinesSkill = defineFileSkill<EditLinesArguments>({
  name: 'edit_lines',
  title: 'Edit lines',
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
  run: ({ path, dry_run: dryRun = false, ...edit }, files, { signal }) =>
    editTextFile(files, path, { dryRun, parameter: 'new_content', signal }, (file, limit) => ({
      text: applyLineEdit(file.text, edit, file.lineEnding, limit),
      what: describeLineEdit(edit),
    })),
});
