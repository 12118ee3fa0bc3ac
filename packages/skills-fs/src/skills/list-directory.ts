import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { modeString } from '../file-mode.js';

/** Arguments of `list_directory`. */
export interface ListDirectoryArguments {
  path?: string;
  all?: boolean;
  long?: boolean;
}

/** Most entries `list_directory` shows. */
const MAX_LIST_ENTRIES = 1000;

function timestamp(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** `list_directory`: the entries of one directory, optionally with `ls -l` details. */
export const listDirectorySkill = defineFileSkill<ListDirectoryArguments>({
  name: 'list_directory',
  title: 'List directory',
  idempotent: true,
  description:
    'List a directory. Directories end in "/", symlinks in "@". Hidden entries (".name") only with all=true; long=true adds "permissions size modified" columns like ls -l. ' +
    `At most ${MAX_LIST_ENTRIES} entries are shown.`,
  readOnly: true,
  destructive: false,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', default: '.', description: 'Directory to list (default: the working directory).' },
      all: { type: 'boolean', default: false, description: 'Include hidden entries (names starting with ".").' },
      long: { type: 'boolean', default: false, description: 'Show permissions, size and modification time.' },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      entries: { type: 'integer', description: 'How many entries are shown.' },
      truncated: { type: 'boolean', description: 'Whether the directory has more entries than are shown.' },
    },
    required: ['path', 'entries', 'truncated'],
    additionalProperties: false,
  },
  run: async ({ path = '.', all = false, long = false }, files) => {
    const real = await files.paths.authorize(path, { mustExist: true });
    const display = await files.paths.display(real);
    const directory = await files.opener.openDirectory(real);
    try {
      const entries = (await readdir(directory.entry('.'), { withFileTypes: true }))
        .filter((entry) => all || !entry.name.startsWith('.'))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const lines: string[] = [];
      let hidden = 0;
      for (const entry of entries) {
        if (lines.length === MAX_LIST_ENTRIES) break;
        if (files.paths.hasBlockedPaths && !(await files.paths.isReadable(join(real, entry.name)))) {
          hidden++;
          continue;
        }
        const suffix = entry.isDirectory() ? '/' : entry.isSymbolicLink() ? '@' : '';
        if (!long) {
          lines.push(entry.name + suffix);
          continue;
        }
        const stats = await lstat(directory.entry(entry.name)).catch(() => undefined);
        if (!stats) continue;
        const target = stats.isSymbolicLink() ? ` -> ${await readlink(directory.entry(entry.name)).catch(() => '?')}` : '';
        lines.push(
          `${modeString(stats)} ${String(stats.size).padStart(10)} ${timestamp(stats.mtime)} ${entry.name}${suffix === '@' ? '' : suffix}${target}`,
        );
      }
      const remarks: string[] = [];
      const shown = lines.length;
      if (entries.length - hidden > shown)
        remarks.push(`[Showing ${shown} of ${entries.length - hidden} entries; use glob to search inside large directories.]`);
      if (hidden > 0) remarks.push(`[${hidden} blocked entr${hidden === 1 ? 'y' : 'ies'} not shown.]`);
      const body = shown === 0 ? `${display} is empty${all ? '' : ' (hidden entries not shown; use all=true)'}.` : lines.join('\n');
      return ToolResult.ok([body, ...remarks].join('\n'), {
        path: display,
        entries: lines.length,
        truncated: entries.length - hidden > shown,
      });
    } finally {
      await directory.close();
    }
  },
});
