import { dirname } from 'node:path';
import { detectLineEnding, ToolResult, withFileLocks } from '@nexus/core';
import { describeChange, summarizeChange } from '../change-summary.js';
import { defineFileSkill } from '../define-file-skill.js';
import { ABSENT } from '../file-snapshot.js';
import { makeDirectories } from '../make-directories.js';
import { editLimit, encodeText, inFileLineEndings, inspectTarget, saveFile } from '../text-file.js';

/** Arguments of `write_file`. */
export interface WriteFileArguments {
  path: string;
  content: string;
}

/** `write_file`: create or replace a file atomically. */
export const writeFileSkill = defineFileSkill<WriteFileArguments>({
  name: 'write_file',
  title: 'Write file',
  description:
    "Create a file or replace its whole content (UTF-8), creating missing parent directories. The write is atomic and keeps an existing file's permissions, line endings (CRLF stays CRLF) and byte order mark. " +
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
  run: async ({ path, content }, files, { signal }) => {
    const real = await files.paths.authorize(path, { access: 'write' });
    const display = await files.paths.display(real);
    const limit = editLimit(files, display, 'content');
    if (content.length > limit.max) throw limit.exceeded(content.length);
    await makeDirectories(files, dirname(real));
    return withFileLocks(
      [real],
      async () => {
        const existing = await inspectTarget(files, real);
        const text = existing?.text === undefined ? content : inFileLineEndings(content, detectLineEnding(existing.text));
        const bytes = await saveFile(files, real, encodeText(text, existing?.bom ?? false, limit), {
          expected: existing?.snapshot ?? ABSENT,
        });
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
      { signal },
    );
  },
});
