import { ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { makeDirectories } from '../make-directories.js';

/** Arguments of `mkdir`. */
export interface MkdirArguments {
  path: string;
}

/** `mkdir`: create a directory and any missing parents. */
export const mkdirSkill = defineFileSkill<MkdirArguments>({
  name: 'mkdir',
  title: 'Make directory',
  idempotent: true,
  description: 'Create a directory, and any missing parent directories (like mkdir -p). Succeeds when it already exists.',
  readOnly: false,
  destructive: false,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Directory to create.' } },
    required: ['path'],
    additionalProperties: false,
  },
  run: async ({ path }, files) => {
    const real = await files.paths.authorize(path, { access: 'write' });
    const created = await makeDirectories(files, real);
    const display = await files.paths.display(real);
    const output = created === 0 ? `${display} already exists.` : `Created ${display}${created > 1 ? ` (${created} directories)` : ''}.`;
    return ToolResult.ok(output, { path: display, created });
  },
});
