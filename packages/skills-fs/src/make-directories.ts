import { lstat, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InvalidParametersError, PathSecurityError } from '@nexus/core';
import { errnoCode } from './errno-code.js';
import type { FileSandbox } from './file-sandbox.js';

/** Options of {@link makeDirectories}. */
export interface MakeDirectoriesOptions {
  /** The argument that named the path, for errors (default `path`). */
  parameter?: string;
}

/**
 * Creates the approved directory `real` and any missing parents (`mkdir -p`), one component at a
 * time, each inside a verified handle of its parent, so no component can be redirected by a
 * symlink planted during the walk. Returns how many directories were created.
 */
export async function makeDirectories(files: FileSandbox, real: string, options: MakeDirectoriesOptions = {}): Promise<number> {
  const { parameter = 'path' } = options;
  const { paths, opener } = files;
  const missing: string[] = [];
  let existing = real;
  for (;;) {
    try {
      const stats = await lstat(existing);
      if (stats.isSymbolicLink())
        throw new PathSecurityError({ path: await paths.display(existing), reason: 'it became a symbolic link after it was checked' });
      if (!stats.isDirectory())
        throw new InvalidParametersError(`\`${parameter}\` ${await paths.display(existing)} exists and is not a directory.`, {
          parameter,
        });
      break;
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
      missing.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
  let current = existing;
  for (const name of missing) {
    const parent = await opener.openDirectory(current);
    try {
      await mkdir(parent.entry(name)).catch((error: unknown) => {
        if (errnoCode(error) !== 'EEXIST') throw error;
      });
    } finally {
      await parent.close();
    }
    current = join(current, name);
  }
  if (missing.length > 0) await (await opener.openDirectory(real)).close();
  return missing.length;
}
