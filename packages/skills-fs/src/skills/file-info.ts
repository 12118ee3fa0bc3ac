import { lstatSync, readlinkSync } from 'node:fs';
import { normalizePath, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { entryKind, modeString } from '../file-mode.js';

/** Arguments of `file_info`. */
export interface FileInfoArguments {
  path: string;
}

/** `file_info`: type, size, permissions and times of a file or directory. */
export const fileInfoSkill = defineFileSkill<FileInfoArguments>({
  name: 'file_info',
  title: 'File info',
  idempotent: true,
  description:
    'Show metadata of a file or directory: type, size, permissions (rwxr-xr-x), owner ids and modification time. Does not read the content.',
  readOnly: true,
  destructive: false,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'File or directory.' } },
    required: ['path'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      type: { enum: ['file', 'directory', 'symlink', 'fifo', 'socket', 'device', 'unknown'] },
      size: { type: 'integer', description: 'Bytes.' },
      permissions: { type: 'string', description: 'As ls -l shows them, e.g. -rw-r--r--.' },
      mode: { type: 'string', description: 'Octal, e.g. 0644.' },
      uid: { type: 'integer' },
      gid: { type: 'integer' },
      modified: { type: 'string', description: 'ISO 8601.' },
      accessed: { type: 'string', description: 'ISO 8601.' },
      changed: { type: 'string', description: 'ISO 8601.' },
      symlinkTarget: { type: 'string', description: 'What the link given as `path` points to.' },
    },
    required: ['path', 'type', 'size', 'permissions', 'mode', 'uid', 'gid', 'modified', 'accessed', 'changed'],
    additionalProperties: false,
  },
  run: async ({ path }, files) => {
    const real = await files.paths.authorize(path, { mustExist: true });
    // Synchronous: each call takes microseconds, a thread-pool round trip many times that.
    const stats = lstatSync(real);
    const display = await files.paths.display(real);
    const given = normalizePath(path, files.services.getCwd());
    const link = given !== real && lstatSync(given, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(given) : undefined;
    const info = {
      path: display,
      type: entryKind(stats),
      size: stats.size,
      permissions: modeString(stats),
      mode: `0${(stats.mode & 0o7777).toString(8)}`,
      uid: stats.uid,
      gid: stats.gid,
      modified: stats.mtime.toISOString(),
      accessed: stats.atime.toISOString(),
      changed: stats.ctime.toISOString(),
      ...(link === undefined ? {} : { symlinkTarget: link }),
    };
    const lines = Object.entries(info).map(([key, value]) => `${key}: ${value}`);
    return ToolResult.ok(lines.join('\n'), info);
  },
});
