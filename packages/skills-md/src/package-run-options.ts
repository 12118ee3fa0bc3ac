import type { ServiceContainer } from '@nexus/core';
import { type RunOptions, resolveCommandSandbox } from '@nexus/process';

/** What {@link packageRunOptions} needs to know. */
export interface PackageRunContext {
  /** The services the package's commands run with: working directory, `exec` settings, permission policy. */
  readonly services: ServiceContainer;
  /** The package's folder. */
  readonly folder: string;
  /** Cap of each of stdout and stderr, in bytes. */
  readonly maxOutputBytes: number;
  /** The command being run: its tool's write roots and its outputs are writable. Without one (listing, a syntax check) nothing is. */
  readonly command?: { readonly tool: string; readonly outputs: readonly string[] };
}

/** The options of `runProcess` that every run of a package's code shares. */
export type PackageRunOptions = Pick<RunOptions, 'cwd' | 'sandbox' | 'maxOutputBytes'>;

/**
 * How a package's code runs — its commands, and the listing and syntax check of its
 * `scripts/commands.mjs` alike: in the working directory, inside the sandbox the services decide
 * for commands (`resolveCommandSandbox`), with the package's folder readable wherever it lies. A
 * command may write its tool's write roots and its outputs; a run without a command writes
 * nothing, so a module that writes when it is imported cannot be listed inside a sandbox. Without
 * a sandbox (none configured, or bubblewrap missing under `auto`) the run is unisolated. Throws
 * `SANDBOX_UNAVAILABLE` where bubblewrap is required and cannot run.
 */
export async function packageRunOptions(context: PackageRunContext): Promise<PackageRunOptions> {
  const { services, folder, maxOutputBytes, command } = context;
  const cwd = services.getCwd();
  const sandbox = await resolveCommandSandbox(services, command?.tool ?? '');
  if (!sandbox) return { cwd, maxOutputBytes };
  const writePaths = command ? sandbox.writePaths && [...sandbox.writePaths, ...command.outputs] : [];
  // The sandbox's private /tmp would hide a package folder under /tmp.
  return { cwd, maxOutputBytes, sandbox: { ...sandbox, writePaths, readPaths: [...(sandbox.readPaths ?? []), folder] } };
}
