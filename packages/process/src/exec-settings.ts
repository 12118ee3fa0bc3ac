import { expectOption, InvalidOptionError } from '@nexus/core';

/** The values of `exec.sandbox`. */
export const EXEC_SANDBOX_MODES = ['auto', 'bubblewrap', 'none'] as const;

/** How command skills isolate what they run (the `exec` service; see {@link resolveCommandIsolation}). */
export interface ExecSettings {
  /**
   * `auto` (default): inside bubblewrap where it can run, except at `yolo`; `bubblewrap`: always,
   * and commands are refused where it cannot run; `none`: never.
   */
  sandbox: (typeof EXEC_SANDBOX_MODES)[number];
  /** Whether sandboxed commands may use the network (default `true`). */
  network: boolean;
}

declare module '@nexus/core' {
  interface Services {
    /** How command skills isolate what they run; missing settings take their defaults. */
    exec: Partial<ExecSettings>;
  }
}

const KNOWN_SETTINGS = ['sandbox', 'network'];

/**
 * Checks exec settings (the `exec` service, a config file's `exec` block) and fills in the
 * defaults: `{ sandbox: 'auto', network: true }`. A bad value is an `InvalidOptionError` naming
 * it: ``Expected `exec.sandbox` to be "auto", "bubblewrap" or "none", got "docker".``
 */
export function parseExecSettings(value: unknown): ExecSettings {
  if (value === undefined) return { sandbox: 'auto', network: true };
  expectOption(typeof value === 'object' && value !== null && !Array.isArray(value), 'exec', 'an object', value);
  const { sandbox = 'auto', network = true, ...rest } = value as Record<string, unknown>;
  const modes: readonly unknown[] = EXEC_SANDBOX_MODES;
  expectOption(modes.includes(sandbox), 'exec.sandbox', '"auto", "bubblewrap" or "none"', sandbox);
  expectOption(typeof network === 'boolean', 'exec.network', 'a boolean', network);
  const [unknown] = Object.keys(rest);
  if (unknown !== undefined) {
    throw new InvalidOptionError(`\`exec.${unknown}\` is not a known setting (${KNOWN_SETTINGS.join(', ')}).`, {
      option: `exec.${unknown}`,
    });
  }
  return { sandbox: sandbox as ExecSettings['sandbox'], network };
}
