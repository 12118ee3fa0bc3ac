import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  atomicWriteVerified,
  authorizePath,
  type ConfirmFunction,
  PathSecurityError,
  type ServiceContainer,
  validatePath,
} from '@nexus/core';

/** Where a download goes: the agent's services, the tool writing, and who to ask during this call. */
export interface OutputTarget {
  services: ServiceContainer;
  tool: string;
  confirm: ConfirmFunction | undefined;
}

/**
 * Writes downloaded bytes to `outputPath` through the sandbox (`authorizePath` for writing, which
 * may ask the call's `confirm` about a write outside the working directory), creating parent
 * directories, atomically and through a verified handle of the parent directory (a swap after the
 * check is refused). Returns the real path written.
 */
export async function saveFile({ services, tool, confirm }: OutputTarget, outputPath: string, bytes: Uint8Array): Promise<string> {
  const target = await authorizePath(services, tool, outputPath, { access: 'write', confirm });
  await mkdir(dirname(target), { recursive: true });
  await atomicWriteVerified(target, bytes);
  return target;
}

/**
 * Writes archive files (safe relative paths) below the directory `outputPath`. The directory goes
 * through the sandbox once; every file is then checked to resolve inside it — a symlink planted in
 * the directory cannot redirect a write — before the first file is written.
 */
export async function extractFiles(
  { services, tool, confirm }: OutputTarget,
  outputPath: string,
  files: ReadonlyMap<string, Uint8Array>,
): Promise<string> {
  const directory = await authorizePath(services, tool, outputPath, { access: 'write', confirm });
  const blockedPaths = services.getBlockedPaths();
  const targets: Array<[string, Uint8Array]> = [];
  for (const [path, data] of files) {
    const target = await validatePath(join(directory, path), { allowedPaths: [directory], blockedPaths }).catch((error: unknown) => {
      if (!PathSecurityError.isInstance(error)) throw error;
      throw new PathSecurityError({
        path,
        reason: 'it resolves outside the target directory or into a blocked path; nothing was extracted',
        cause: error,
      });
    });
    targets.push([target, data]);
  }
  for (const [target, data] of targets) {
    await mkdir(dirname(target), { recursive: true });
    await atomicWriteVerified(target, data);
  }
  return directory;
}
