import { PathSecurityError } from './errors.js';
import { validatePath } from './paths.js';
import type { PathAccess } from './permissions.js';
import type { ConfirmFunction, ServiceContainer } from './service-container.js';

/** Options of {@link authorizePath}. */
export interface AuthorizePathOptions {
  /** `write` for anything that creates, changes or removes the path (default `read`). */
  access?: PathAccess;
  /** Fail with `not_found` when the path does not exist. */
  mustExist?: boolean;
  /** `false` makes a symlink in the last component the subject itself (moving a link); see {@link validatePath}. */
  followFinalLink?: boolean;
  /** Who to ask, for this call, before a write outside the write roots (a skill passes `context.confirm`). */
  confirm?: ConfirmFunction;
}

/**
 * The sandbox entry point for skills: validates `path` for `tool` against the agent's policy
 * (per-tool roots, blocked paths, symlinks, hard links) and returns the real path to use.
 * A write outside the write roots is refused, or — under a policy with `confirmWritesOutside`
 * (the `trusted` preset) — allowed once approved (`options.confirm`, else the `confirm` service).
 */
export async function authorizePath(
  services: ServiceContainer,
  tool: string,
  path: string,
  options: AuthorizePathOptions = {},
): Promise<string> {
  const { access = 'read', mustExist = false, followFinalLink = true, confirm } = options;
  const base = { cwd: services.getCwd(), blockedPaths: services.getBlockedPaths(), mustExist, followFinalLink };
  const readRoots = services.getToolAllowedPaths(tool, 'read');
  if (access === 'read') return validatePath(path, { ...base, allowedPaths: readRoots });
  try {
    return await validatePath(path, { ...base, allowedPaths: services.getToolAllowedPaths(tool, 'write') });
  } catch (error) {
    if (!PathSecurityError.isInstance(error) || !services.getPermissions()?.confirmWritesOutside) throw error;
    const real = await validatePath(path, { ...base, allowedPaths: readRoots });
    if (await services.confirm({ tool, action: `write outside the working directory: ${real}`, path: real }, confirm)) return real;
    throw new PathSecurityError({ path, reason: 'writing outside the working directory needs confirmation, and it was not given' });
  }
}
