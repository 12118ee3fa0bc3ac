import { stat } from 'node:fs/promises';
import { authorizePath, type ConfirmFunction, InvalidParametersError, type PathAccess, type ServiceContainer } from '@nexus/core';

/** Options of {@link resolveWorkingDirectory}. */
export interface WorkingDirectoryOptions {
  /** `write` for commands that change files there (default `read`). */
  access?: PathAccess;
  /** Who to ask, for this call, before a write outside the write roots (a skill passes `context.confirm`). */
  confirm?: ConfirmFunction;
}

/**
 * Validates a skill's optional `cwd` argument through core's `authorizePath` for `tool`
 * (default: the agent's working directory) and checks that it is an existing directory.
 * Returns the real absolute path to run in. Throws a `PathSecurityError` (`forbidden`) outside
 * the sandbox, a `NotFoundError` when it does not exist, and an `InvalidParametersError` naming
 * `cwd` when it is not a directory. With `access: 'write'`, a directory outside the write roots
 * asks for confirmation under `trusted` — the call's own `confirm`, else the `confirm` service.
 */
export async function resolveWorkingDirectory(
  services: ServiceContainer,
  tool: string,
  cwd?: string,
  options: WorkingDirectoryOptions = {},
): Promise<string> {
  const { access = 'read', confirm } = options;
  if (cwd !== undefined && typeof cwd !== 'string') {
    throw new InvalidParametersError(`Expected \`cwd\` to be a path string, got ${cwd === null ? 'null' : typeof cwd}.`, {
      parameter: 'cwd',
    });
  }
  const path = await authorizePath(services, tool, cwd ?? services.getCwd(), { access, mustExist: true, confirm });
  if (!(await stat(path)).isDirectory()) {
    throw new InvalidParametersError(`Expected \`cwd\` to be a directory, got a file: ${cwd ?? path}.`, { parameter: 'cwd' });
  }
  return path;
}
