import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { detectLineEnding, InvalidParametersError, openVerified, ToolResult, withFileLocks } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { errnoCode } from '../errno-code.js';
import type { FileSandbox } from '../file-sandbox.js';
import { ABSENT } from '../file-snapshot.js';
import { makeDirectories } from '../make-directories.js';
import { BINARY_SNIFF_BYTES, editLimit, encodeText, inFileLineEndings, saveFile, unsupportedEncoding } from '../text-file.js';

/** Arguments of `append_file`. */
export interface AppendFileArguments {
  path: string;
  content: string;
  newline?: boolean;
}

/** Bytes read from the end of a file to learn its line-ending style. */
const TAIL_SAMPLE_BYTES = 8192;

/** `length` bytes of `real` at `position`, read through a verified open. */
async function readAt(real: string, position: number, length: number): Promise<Buffer> {
  const reader = await openVerified(real);
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await reader.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await reader.close();
  }
}

/** Appends `content` to the existing file open in append mode as `handle`, in its line-ending style. */
async function appendTo(
  files: FileSandbox,
  real: string,
  display: string,
  handle: FileHandle,
  content: string,
  newline: boolean,
): Promise<ToolResult> {
  const before = await handle.stat();
  if (!before.isFile()) throw new InvalidParametersError(`\`path\` ${display} is not a regular file.`, { parameter: 'path' });
  const problem = unsupportedEncoding(await readAt(real, 0, Math.min(BINARY_SNIFF_BYTES, before.size)));
  if (problem) throw new InvalidParametersError(`\`path\` ${display} ${problem}.`, { parameter: 'path' });
  const wasSeen = files.staleWrites.hasSeen(real, before);
  const tail = (await readAt(real, Math.max(0, before.size - TAIL_SAMPLE_BYTES), Math.min(TAIL_SAMPLE_BYTES, before.size))).toString(
    'utf8',
  );
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
}

/** `append_file`: add text to the end of a file (created when missing). */
export const appendFileSkill = defineFileSkill<AppendFileArguments>({
  name: 'append_file',
  title: 'Append to file',
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
  run: async ({ path, content, newline = true }, files, { signal }) => {
    const real = await files.paths.authorize(path, { access: 'write' });
    const display = await files.paths.display(real);
    await makeDirectories(files, dirname(real));
    // Appends to one file take turns, so each sees the end the one before it left (and starts on a new line after it).
    return withFileLocks(
      [real],
      async () => {
        let handle: FileHandle;
        try {
          handle = await openVerified(real, constants.O_WRONLY | constants.O_APPEND);
        } catch (error) {
          if (errnoCode(error) !== 'ENOENT') throw error;
          const bytes = await saveFile(files, real, encodeText(content, false, editLimit(files, display, 'content')), { expected: ABSENT });
          return ToolResult.ok(`Created ${display} with the appended text (${bytes} bytes).`, { path: display, created: true, bytes });
        }
        try {
          return await appendTo(files, real, display, handle, content, newline);
        } finally {
          await handle.close();
        }
      },
      { signal },
    );
  },
});
