import { lstat, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { InvalidParametersError } from '@nexus/core';
import type { FileSandbox } from './file-sandbox.js';

/**
 * Resolves the destination of `copy_file` and `rename` like `cp` and `mv`: an existing directory
 * receives the source under its own name (approved again for writing). Refuses an existing
 * destination unless `overwrite`, and one that is not a regular file (a FIFO, socket or device
 * is never replaced). Returns the approved real destination and whether it exists.
 */
export async function resolveDestination(
  files: FileSandbox,
  source: string,
  destination: string,
  overwrite: boolean,
): Promise<{ path: string; exists: boolean }> {
  let real = await files.paths.authorize(destination, { access: 'write', parameter: 'destination' });
  if (real !== source && (await stat(real).catch(() => undefined))?.isDirectory()) {
    real = await files.paths.authorize(join(real, basename(source)), { access: 'write', parameter: 'destination' });
  }
  if (real === source)
    throw new InvalidParametersError('Expected `destination` to differ from `source`; both are the same path.', {
      parameter: 'destination',
    });
  const existing = await lstat(real).catch(() => undefined);
  if (existing && !overwrite) {
    throw new InvalidParametersError(
      `\`destination\` ${await files.paths.display(real)} already exists; set overwrite=true to replace it.`,
      { parameter: 'destination' },
    );
  }
  if (existing?.isDirectory())
    throw new InvalidParametersError(`\`destination\` ${await files.paths.display(real)} is a directory; it cannot be replaced.`, {
      parameter: 'destination',
    });
  // A symlink here was planted after the check; the write refuses it as such.
  if (existing && !existing.isFile() && !existing.isSymbolicLink())
    throw new InvalidParametersError(
      `\`destination\` ${await files.paths.display(real)} is a device, socket or FIFO, not a regular file; it is never replaced.`,
      { parameter: 'destination' },
    );
  return { path: real, exists: existing !== undefined };
}
