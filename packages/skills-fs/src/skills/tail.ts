import { InvalidParametersError, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { decodeRemarks, readLastLines } from '../line-reader.js';
import { looksBinary } from '../text-file.js';

/** Arguments of `tail`. */
export interface TailArguments {
  path: string;
  lines?: number;
}

/** Most lines `tail` returns at once. */
const MAX_TAIL_LINES = 10_000;

/** `tail`: the last lines of a file, read backwards from its end. */
export const tailSkill = defineFileSkill<TailArguments>({
  name: 'tail',
  title: 'Tail file',
  idempotent: true,
  description: 'Show the last lines of a text file (default 10), reading from the end, so it is fast on huge logs.',
  readOnly: true,
  destructive: false,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to read.' },
      lines: { type: 'integer', minimum: 1, maximum: MAX_TAIL_LINES, default: 10, description: 'How many lines from the end.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  run: async ({ path, lines = 10 }, files) => {
    const file = await files.opener.openReader(path);
    try {
      const display = await files.paths.display(file.path);
      if (looksBinary(file.head))
        throw new InvalidParametersError(`\`path\` ${display} is a binary file; tail only shows text.`, { parameter: 'path' });
      const { maxReadBytes, maxLineLength } = files.options;
      const result = await readLastLines(file, lines, maxReadBytes, maxLineLength);
      files.staleWrites.recordSeen(file.path, file.stats);
      if (result.lines.length === 0) return ToolResult.ok(`${display} is empty.`, { path: display, lines: 0 });
      const remarks = decodeRemarks(result, maxLineLength);
      if (result.lines.length < lines && file.size > maxReadBytes)
        remarks.push(`[Only the last ${Math.round(maxReadBytes / 1024)} KiB were read.]`);
      return ToolResult.ok([...result.lines, ...remarks].join('\n'), { path: display, lines: result.lines.length });
    } finally {
      file.close();
    }
  },
});
