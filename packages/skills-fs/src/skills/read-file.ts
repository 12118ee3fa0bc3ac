import { InvalidParametersError, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { decodeRemarks, readLineSlice } from '../line-reader.js';
import { looksBinary } from '../text-file.js';

/** Arguments of `read_file`. */
export interface ReadFileArguments {
  path: string;
  offset?: number;
  limit?: number;
}

/** `read_file`: numbered lines of a text file, a slice at a time. */
export const readFileSkill = defineFileSkill<ReadFileArguments>({
  name: 'read_file',
  title: 'Read file',
  idempotent: true,
  description:
    'Read a UTF-8 text file. Lines come numbered ("     12\\tcode"), the numbers edit_lines and edit_file(start_line) use. ' +
    'Use offset and limit to read part of a large file; long output is cut with a note saying which offset to continue from. Binary files are refused.',
  readOnly: true,
  destructive: false,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to read, relative to the working directory or absolute.' },
      offset: { type: 'integer', minimum: 1, default: 1, description: 'First line to return (1-based).' },
      limit: { type: 'integer', minimum: 1, description: 'Most lines to return (default: as many as fit in the size limit).' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  run: async ({ path, offset = 1, limit }, files) => {
    const file = await files.opener.openReader(path);
    try {
      const display = await files.paths.display(file.path);
      const { maxReadBytes, maxLineLength } = files.options;
      if (looksBinary(file.head)) {
        throw new InvalidParametersError(
          `\`path\` ${display} is a binary file (${file.size} bytes); read_file only shows text. Use file_info for its metadata.`,
          { parameter: 'path' },
        );
      }
      const slice = await readLineSlice(file, { offset, limit, maxBytes: maxReadBytes, maxLineLength });
      files.staleWrites.recordSeen(file.path, file.stats);
      const remarks = decodeRemarks(slice, maxLineLength);
      if (slice.count === 0) {
        const empty =
          slice.totalLines === 0 ? `${display} is empty.` : `${display} has ${slice.totalLines} line(s); offset ${offset} is past the end.`;
        return ToolResult.ok(empty, { path: display, lines: 0, totalLines: slice.totalLines ?? null });
      }
      const first = slice.firstLine;
      const last = first + slice.count - 1;
      if (slice.nextLine !== undefined) {
        const why = slice.hitByteLimit ? `the ${Math.round(maxReadBytes / 1024)} KiB output limit was reached` : 'the limit was reached';
        remarks.push(
          `[Showing lines ${first}–${last}; ${why} and the file goes on. Continue with offset=${slice.nextLine}${slice.hitByteLimit ? ' (and a limit)' : ''}.]`,
        );
      }
      const output = [slice.text, ...remarks].join('\n');
      return ToolResult.ok(output, {
        path: display,
        firstLine: first,
        lastLine: last,
        nextLine: slice.nextLine ?? null,
        totalLines: slice.totalLines ?? null,
      });
    } finally {
      file.close();
    }
  },
});
