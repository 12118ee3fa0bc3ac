import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { detectLineEnding, InvalidParametersError, openVerified, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { errnoCode } from '../errno-code.js';
import { inFileLineEndings, saveFile } from '../text-file.js';

/** Arguments of `append_file`. */
export interface AppendFileArguments {
  path: string;
  content: string;
  newline?: boolean;
}

/** Bytes read from the end of a file to learn its line-ending style. */
const TAIL_SAMPLE_BYTES = 8192;

/** `append_file`: add text to the end of a file (created when missing). */
export const appendFileSkill = defineFileSkill<AppendFileArguments>({
  name: 'append_file',
  description:
    'Append text to the end of a file, creating it (and its directories) when missing. With newline=true (default) the text starts on a new line if the file does not end with one. ' +
    "Line breaks follow the file's style (CRLF stays CRLF). The file is opened in append mode, so a large log is not rewritten; a failed write is rolled back.",
  readOnly: false,
  destructive: false,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to append to.' },
      content: { type: 'string', description: 'Text to append.' },
      newline: { type: 'boolean', default: true, description: 'Start on a new line when the file does not end with a line break.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  run: async ({ path, content, newline = true }, files) => {
    const real = await files.paths.authorize(path, { access: 'write' });
    const display = await files.paths.display(real);
    let handle: FileHandle;
    try {
      handle = await openVerified(real, constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
      const bytes = await saveFile(files, real, content, { createParents: true });
      return ToolResult.ok(`Created ${display} with the appended text (${bytes} bytes).`, { path: display, created: true, bytes });
    }
    try {
      const before = await handle.stat();
      if (!before.isFile()) throw new InvalidParametersError(`\`path\` ${display} is not a regular file.`, { parameter: 'path' });
      const wasSeen = files.staleWrites.hasSeen(real, before);
      const reader = await openVerified(real);
      const sample = Buffer.alloc(Math.min(TAIL_SAMPLE_BYTES, before.size));
      try {
        await reader.read(sample, 0, sample.length, before.size - sample.length);
      } finally {
        await reader.close();
      }
      const tail = sample.toString('utf8');
      const ending = detectLineEnding(tail);
      let text = inFileLineEndings(content, ending);
      if (newline && before.size > 0 && !tail.endsWith('\n') && !tail.endsWith('\r')) text = ending + text;
      const data = Buffer.from(text, 'utf8');
      try {
        for (let written = 0; written < data.length; ) written += (await handle.write(data, written)).bytesWritten;
        await handle.sync();
      } catch (error) {
        await handle.truncate(before.size).catch(() => {});
        throw error;
      }
      const after = await handle.stat();
      if (wasSeen) files.staleWrites.recordSeen(real, after);
      return ToolResult.ok(`Appended ${data.length} bytes to ${display} (now ${after.size} bytes).`, {
        path: display,
        created: false,
        bytes: data.length,
      });
    } finally {
      await handle.close();
    }
  },
});
