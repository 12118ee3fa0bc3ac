import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteVerified, InvalidParametersError, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { errnoCode } from '../errno-code.js';
import type { OpenedFile } from '../file-opener.js';
import { makeDirectories } from '../make-directories.js';
import { resolveDestination } from '../place-entry.js';

/** Arguments of `copy_file`. */
export interface CopyFileArguments {
  source: string;
  destination: string;
  overwrite?: boolean;
}

/** Bytes copied at a time. */
const COPY_CHUNK_BYTES = 1024 * 1024;

/**
 * Copies the open `source` into `target` by reading it to its end: a file whose size the kernel
 * reports as 0 (`/proc/self/status`) holds text all the same, so its size is not trusted; such a
 * file is copied up to `limit` bytes and refused past it. A file with a size is copied up to that
 * size. Returns the number of bytes copied.
 */
async function copyContent(source: OpenedFile, target: FileHandle, limit: number, display: string): Promise<number> {
  const end = source.stats.size > 0 ? source.stats.size : limit + 1;
  const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK_BYTES, end));
  let copied = 0;
  while (copied < end) {
    const { bytesRead } = await source.handle.read(buffer, 0, Math.min(buffer.length, end - copied), copied);
    if (bytesRead === 0) break;
    await target.write(buffer, 0, bytesRead);
    copied += bytesRead;
  }
  if (source.stats.size === 0 && copied > limit)
    throw new InvalidParametersError(
      `\`source\` ${display} has no size on record and holds more than the ${limit} bytes the file skills copy from such a file (maxEditBytes).`,
      { parameter: 'source' },
    );
  return copied;
}

/** `copy_file`: copy one file, keeping its permissions and times. */
export const copyFileSkill = defineFileSkill<CopyFileArguments>({
  name: 'copy_file',
  title: 'Copy file',
  description:
    'Copy a file, keeping its permissions and modification time, creating missing directories. A destination that is a directory receives the file under its own name. ' +
    'An existing destination is only replaced with overwrite=true. The copy appears atomically.',
  readOnly: false,
  destructive: true,
  parameters: {
    type: 'object',
    properties: {
      source: { type: 'string', description: 'File to copy.' },
      destination: { type: 'string', description: 'New path (or an existing directory).' },
      overwrite: { type: 'boolean', default: false, description: 'Replace an existing destination file.' },
    },
    required: ['source', 'destination'],
    additionalProperties: false,
  },
  run: async ({ source, destination, overwrite = false }, files) => {
    const opened = await files.opener.openFile(source, { parameter: 'source' });
    try {
      const target = await resolveDestination(files, opened.path, destination, overwrite);
      await makeDirectories(files, dirname(target.path), { parameter: 'destination' });
      const from = await files.paths.display(opened.path);
      const to = await files.paths.display(target.path);
      let bytes = 0;
      try {
        // The source is read through its verified handle, not its path again; link() (exclusive) never replaces a destination that appeared meanwhile.
        await atomicWriteVerified(
          target.path,
          async (handle) => {
            bytes = await copyContent(opened, handle, files.options.maxEditBytes, from);
            await handle.utimes(opened.stats.atime, opened.stats.mtime);
          },
          { mode: opened.stats.mode & 0o7777, exclusive: !overwrite },
        );
      } catch (error) {
        if (errnoCode(error) === 'EEXIST')
          throw new InvalidParametersError(`\`destination\` ${to} already exists; set overwrite=true to replace it.`, {
            parameter: 'destination',
          });
        throw error;
      }
      files.staleWrites.forget(target.path);
      return ToolResult.ok(`Copied ${from} to ${to} (${bytes} bytes${target.exists ? ', replaced the existing file' : ''}).`, {
        source: from,
        destination: to,
        bytes,
        replaced: target.exists,
      });
    } finally {
      await opened.handle.close();
    }
  },
});
