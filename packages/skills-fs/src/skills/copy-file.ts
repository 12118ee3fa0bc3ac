import { randomBytes } from 'node:crypto';
import { chmod, copyFile, link, rename, unlink, utimes } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { InvalidParametersError, refusePlantedSymlink, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { errnoCode } from '../errno-code.js';
import { makeDirectories } from '../make-directories.js';
import { resolveDestination } from '../place-entry.js';

/** Arguments of `copy_file`. */
export interface CopyFileArguments {
  source: string;
  destination: string;
  overwrite?: boolean;
}

/** `copy_file`: copy one file, keeping its permissions and times. */
export const copyFileSkill = defineFileSkill<CopyFileArguments>({
  name: 'copy_file',
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
      await makeDirectories(files, dirname(target.path));
      const directory = await files.opener.openDirectory(dirname(target.path));
      const final = directory.entry(basename(target.path));
      const temporary = directory.entry(`.${basename(target.path)}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        // The source is read through its verified handle (/proc/self/fd/N), not its path again.
        await copyFile(`/proc/self/fd/${opened.handle.fd}`, temporary).catch(() => copyFile(opened.path, temporary));
        await chmod(temporary, opened.stats.mode & 0o7777);
        await utimes(temporary, opened.stats.atime, opened.stats.mtime);
        await refusePlantedSymlink(final, target.path);
        if (overwrite) await rename(temporary, final);
        else {
          // link() fails if the destination appeared meanwhile, so nothing is ever replaced.
          await link(temporary, final);
          await unlink(temporary);
        }
      } catch (error) {
        await unlink(temporary).catch(() => {});
        if (errnoCode(error) === 'EEXIST')
          throw new InvalidParametersError(
            `\`destination\` ${await files.paths.display(target.path)} already exists; set overwrite=true to replace it.`,
            { parameter: 'destination' },
          );
        throw error;
      } finally {
        await directory.close();
      }
      files.staleWrites.forget(target.path);
      const from = await files.paths.display(opened.path);
      const to = await files.paths.display(target.path);
      return ToolResult.ok(`Copied ${from} to ${to} (${opened.stats.size} bytes${target.exists ? ', replaced the existing file' : ''}).`, {
        source: from,
        destination: to,
        bytes: opened.stats.size,
        replaced: target.exists,
      });
    } finally {
      await opened.handle.close();
    }
  },
});
