import { ToolResult } from '@nexus/core';
import { defineFileSkill } from '../file-sandbox.js';

/** Arguments of `mkdir`. */
export interface MkdirArgs {
  path: string;
}

/** `mkdir`: create a directory and any missing parents. */
export const mkdirSkill = defineFileSkill<MkdirArgs>({
  name: 'mkdir',
  description: 'Create a directory, and any missing parent directories (like mkdir -p). Succeeds when it already exists.',
  readOnly: false,
  destructive: false,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Directory to create.' } },
    required: ['path'],
    additionalProperties: false,
  },
  create:
    (files) =>
    async ({ path }) => {
      const real = await files.authorize(path, { access: 'write' });
      const created = await files.makeDirectories(real);
      const display = await files.display(real);
      const output = created === 0 ? `${display} already exists.` : `Created ${display}${created > 1 ? ` (${created} directories)` : ''}.`;
      return ToolResult.ok(output, { path: display, created });
    },
});
