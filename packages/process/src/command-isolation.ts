import { NexusError, type PermissionLevel, type ServiceContainer } from '@nexus/core';
import { checkBubblewrap, type SandboxOptions } from './bubblewrap.js';
import { type ExecSettings, parseExecSettings } from './exec-settings.js';

/** Where command skills run: inside bubblewrap, or unisolated and why. */
export type CommandIsolation = { isolation: 'bubblewrap' } | { isolation: 'none'; reason: string };

/**
 * Where commands run under `settings` at permission `level` (no level counts as `sandboxed`):
 * - `sandbox: 'none'` → unisolated;
 * - `sandbox: 'auto'` → inside bubblewrap where it can run (Linux, `bwrap` on PATH, its sandbox
 *   tried once), except at `yolo`; else unisolated, with the reason;
 * - `sandbox: 'bubblewrap'` → inside bubblewrap at every level; where it cannot run, a `NexusError`
 *   with code `SANDBOX_UNAVAILABLE` saying why (commands are refused, not run unisolated).
 */
export async function resolveCommandIsolation(
  settings: Partial<ExecSettings> | undefined,
  level: PermissionLevel | undefined,
): Promise<CommandIsolation> {
  const { sandbox, network } = parseExecSettings(settings);
  if (sandbox === 'none') return { isolation: 'none', reason: 'exec.sandbox is "none"' };
  if (sandbox === 'auto' && level === 'yolo') {
    return { isolation: 'none', reason: 'the yolo level runs commands unisolated unless exec.sandbox is "bubblewrap"' };
  }
  const check = await checkBubblewrap(process.env.PATH, network);
  if (check.available) return { isolation: 'bubblewrap' };
  if (sandbox === 'auto') return { isolation: 'none', reason: check.reason };
  throw new NexusError(`Commands must run inside bubblewrap (exec.sandbox is "bubblewrap"), but ${check.reason}, so they are refused.`, {
    code: 'SANDBOX_UNAVAILABLE',
  });
}

/**
 * The `sandbox` option of `runProcess` for a command `tool` runs, from the agent's services: the
 * `exec` settings and the permission level decide whether there is one (see
 * {@link resolveCommandIsolation}); its write paths are the tool's write roots, its blocked paths
 * the agent's. `undefined` when the command runs unisolated; throws `SANDBOX_UNAVAILABLE` where
 * bubblewrap is required and cannot run.
 */
export async function resolveCommandSandbox(services: ServiceContainer, tool: string): Promise<SandboxOptions | undefined> {
  const settings = services.get('exec');
  const { isolation } = await resolveCommandIsolation(settings, services.getPermissionLevel());
  if (isolation === 'none') return undefined;
  return {
    writePaths: services.getToolAllowedPaths(tool, 'write'),
    blockedPaths: services.getBlockedPaths(),
    network: parseExecSettings(settings).network,
  };
}
