import { link, lstat, rename, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { InvalidParametersError, isWithin, refusePlantedSymlink, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { errnoCode } from '../errno-code.js';
import { makeDirectories } from '../make-directories.js';
import { resolveDestination } from '../place-entry.js';

/** Arguments of `rename`. */
export interface RenameArguments {
  source: string;
  destination: string;
  overwrite?: boolean;
}

/** `rename`: move or rename a file or directory. */
export const renameSkill = defineFileSkill<RenameArguments>({
  name: 'rename',
  title: 'Rename',
  description:
    'Rename or move a file or directory, creating missing directories. A destination that is an existing directory receives the source under its own name. ' +
    'An existing destination file is only replaced with overwrite=true.',
  readOnly: false,
  destructive: true,
  parameters: {
    type: 'object',
    properties: {
      source: { type: 'string', description: 'File or directory to move.' },
      destination: { type: 'string', description: 'New path (or an existing directory to move into).' },
      overwrite: { type: 'boolean', default: false, description: 'Replace an existing destination file.' },
    },
    required: ['source', 'destination'],
    additionalProperties: false,
  },
  run: async ({ source, destination, overwrite = false }, files) => {
    // A symlink moves as itself (like mv), but only one that resolves inside the sandbox.
    await files.paths.authorize(source, { mustExist: true, parameter: 'source' });
    const from = await files.paths.authorize(source, { access: 'write', mustExist: true, followFinalLink: false, parameter: 'source' });
    const target = await resolveDestination(files, from, destination, overwrite);
    const isDirectory = (await lstat(from)).isDirectory();
    if (isDirectory && isWithin(target.path, from))
      throw new InvalidParametersError('Expected `destination` outside `source`: a directory cannot move into itself.', {
        parameter: 'destination',
      });
    await makeDirectories(files, dirname(target.path), { parameter: 'destination' });
    const sourceDirectory = await files.opener.openDirectory(dirname(from));
    const targetDirectory = await files.opener.openDirectory(dirname(target.path));
    try {
      const oldEntry = sourceDirectory.entry(basename(from));
      const newEntry = targetDirectory.entry(basename(target.path));
      await refusePlantedSymlink(newEntry, target.path);
      if (overwrite || isDirectory) await rename(oldEntry, newEntry);
      else {
        // link() refuses an existing destination atomically, so a file that appeared meanwhile is kept.
        await link(oldEntry, newEntry);
        await unlink(oldEntry);
      }
    } catch (error) {
      if (errnoCode(error) === 'EEXIST')
        throw new InvalidParametersError(
          `\`destination\` ${await files.paths.display(target.path)} already exists; set overwrite=true to replace it.`,
          { parameter: 'destination' },
        );
      throw error;
    } finally {
      await sourceDirectory.close();
      await targetDirectory.close();
    }
    files.staleWrites.forget(from);
    files.staleWrites.forget(target.path);
    const shownFrom = await files.paths.display(from);
    const shownTo = await files.paths.display(target.path);
    return ToolResult.ok(`Moved ${shownFrom} to ${shownTo}${target.exists ? ' (replaced the existing file)' : ''}.`, {
      source: shownFrom,
      destination: shownTo,
      replaced: target.exists,
    });
  },
});
