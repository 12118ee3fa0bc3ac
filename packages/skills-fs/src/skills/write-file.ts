import { detectLineEnding, ToolResult } from '@nexus/core';
import { describeChange, summarizeChange } from '../change-summary.js';
import { defineFileSkill } from '../define-file-skill.js';
import { inFileLineEndings, inspectTarget, saveFile } from '../text-file.js';

/** Arguments of `write_file`. */
export interface WriteFileArguments {
  path: string;
  content: string;
}

/** `write_file`: create or replace a file atomically. */
export const writeFileSkill = defineFileSkill<WriteFileArguments>({
  name: 'write_file',
  description:
    "Create a file or replace its whole content (UTF-8), creating missing parent directories. The write is atomic and keeps an existing file's permissions and line endings (CRLF stays CRLF). " +
    'Read an existing file before overwriting it; for small changes prefer edit_file.',
  readOnly: false,
  destructive: true,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to write.' },
      content: { type: 'string', description: 'The complete new content.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  run: async ({ path, content }, files) => {
    const real = await files.paths.authorize(path, { access: 'write' });
    const display = await files.paths.display(real);
    const existing = await inspectTarget(files, real);
    const text = existing?.text === undefined ? content : inFileLineEndings(content, detectLineEnding(existing.text));
    const bytes = await saveFile(files, real, text, { createParents: true });
    if (!existing) return ToolResult.ok(`Created ${display} (${bytes} bytes).`, { path: display, created: true, bytes });
    if (existing.text === undefined)
      return ToolResult.ok(`Replaced ${display} (${bytes} bytes).`, { path: display, created: false, bytes });
    const change = summarizeChange(display, existing.text, text);
    return ToolResult.ok(`Updated ${display} ${describeChange(change)}`, {
      path: display,
      created: false,
      bytes,
      added: change.added,
      removed: change.removed,
    });
  },
});
