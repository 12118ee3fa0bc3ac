import { InvalidParametersError } from '@nexus/core';
import { editTextFile } from '../commit-edit.js';
import { defineFileSkill } from '../define-file-skill.js';
import { applyLineEdit, applyStringEdit, describeLineEdit, LINE_EDIT_PROPERTIES, type StringEdit } from '../text-edits.js';

/** Arguments of `edit_file`: one of the string, batched or line forms. */
export interface EditFileArguments {
  path: string;
  old_string?: string;
  new_string?: string;
  replace_all?: boolean;
  edits?: StringEdit[];
  start_line?: number;
  end_line?: number;
  new_content?: string;
  dry_run?: boolean;
}

type EditForm = 'string' | 'batch' | 'lines';

const FORM_PARAMETERS: Record<EditForm, readonly (keyof EditFileArguments)[]> = {
  string: ['old_string', 'new_string', 'replace_all'],
  batch: ['edits'],
  lines: ['start_line', 'end_line', 'new_content'],
};

function chooseForm(args: EditFileArguments): EditForm {
  const used = (Object.keys(FORM_PARAMETERS) as EditForm[]).filter((form) =>
    FORM_PARAMETERS[form].some((name) => args[name] !== undefined && !(name === 'replace_all' && args[name] === false)),
  );
  if (used.length === 0)
    throw new InvalidParametersError(
      'Missing required parameter `old_string` (with `new_string`), or `edits`, or `start_line` (with `new_content`).',
      { parameter: 'old_string' },
    );
  if (used.length > 1) {
    const names = used.map((form) => `\`${FORM_PARAMETERS[form][0]}\``).join(' and ');
    throw new InvalidParametersError(`Use one form of edit_file at a time: ${names} cannot be combined.`, {
      parameter: FORM_PARAMETERS[used[1] as EditForm][0],
    });
  }
  const form = used[0] as EditForm;
  if (form === 'string' && args.old_string === undefined)
    throw new InvalidParametersError('Missing required parameter `old_string`.', { parameter: 'old_string' });
  if (form === 'string' && args.new_string === undefined)
    throw new InvalidParametersError('Missing required parameter `new_string`.', { parameter: 'new_string' });
  if (form === 'lines' && args.start_line === undefined)
    throw new InvalidParametersError('Missing required parameter `start_line`.', { parameter: 'start_line' });
  if (form === 'lines' && args.new_content === undefined)
    throw new InvalidParametersError('Missing required parameter `new_content`.', { parameter: 'new_content' });
  return form;
}

/** `edit_file`: exact string replacement (single, all, or a batch), or a line-range replacement. */
export const editFileSkill = defineFileSkill<EditFileArguments>({
  name: 'edit_file',
  title: 'Edit file',
  description:
    'Edit a text file by exact string replacement. Forms: (1) old_string + new_string — old_string must match exactly once (or set replace_all=true); ' +
    '(2) edits: [{old_string, new_string, replace_all?}, …] applied in order, all or nothing; (3) start_line, end_line, new_content — replace a range of lines as read_file numbers them. ' +
    'Line endings and permissions are kept; the write is atomic; the result shows the diff. dry_run=true shows the diff without writing. Read the file first.',
  readOnly: false,
  destructive: true,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to edit.' },
      old_string: { type: 'string', description: 'Exact text to replace, whitespace included.' },
      new_string: { type: 'string', description: 'Replacement text.' },
      replace_all: { type: 'boolean', default: false, description: 'Replace every occurrence of old_string.' },
      edits: {
        type: 'array',
        minItems: 1,
        description: 'Several replacements applied in order; if any fails, none is written.',
        items: {
          type: 'object',
          properties: {
            old_string: { type: 'string' },
            new_string: { type: 'string' },
            replace_all: { type: 'boolean', default: false },
          },
          required: ['old_string', 'new_string'],
          additionalProperties: false,
        },
      },
      ...LINE_EDIT_PROPERTIES,
      dry_run: { type: 'boolean', default: false, description: 'Only show the diff.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  run: async (args, files, { signal }) => {
    const form = chooseForm(args);
    const dryRun = args.dry_run ?? false;
    const parameter = form === 'lines' ? 'new_content' : form === 'batch' ? 'edits' : 'new_string';
    return editTextFile(files, args.path, { dryRun, parameter, signal }, (file, limit) => {
      if (form === 'lines') {
        const edit = {
          start_line: args.start_line as number,
          new_content: args.new_content as string,
          ...(args.end_line === undefined ? {} : { end_line: args.end_line }),
        };
        return { text: applyLineEdit(file.text, edit, file.lineEnding, limit), what: describeLineEdit(edit) };
      }
      const edits: StringEdit[] =
        form === 'batch'
          ? (args.edits as StringEdit[])
          : [{ old_string: args.old_string as string, new_string: args.new_string as string, replace_all: args.replace_all ?? false }];
      let text = file.text;
      let replaced = 0;
      edits.forEach((edit, index) => {
        const outcome = applyStringEdit(text, edit, file.lineEnding, form === 'batch' ? `edits[${index}].old_string` : 'old_string', limit);
        text = outcome.text;
        replaced += outcome.replaced;
      });
      return { text, what: form === 'batch' ? `${edits.length} edits, ${replaced} replacement(s)` : `replaced ${replaced} occurrence(s)` };
    });
  },
});
