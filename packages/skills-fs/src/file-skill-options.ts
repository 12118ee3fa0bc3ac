import { expectOption, isPositiveNumber, type ServiceContainer } from '@nexus/core';

/** Which engine `grep` searches with. */
export type GrepEngine = 'auto' | 'ripgrep' | 'builtin';

/**
 * Host settings of the file family, registered as the `fileSkillOptions` service. Every field is
 * optional; {@link resolveFileSkillOptions} fills in the defaults.
 */
export interface FileSkillOptions {
  /**
   * `auto` (default) uses ripgrep when `rg` is on `PATH` and the built-in engine otherwise;
   * `ripgrep` and `builtin` force one. The `NEXUS_GREP_ENGINE` environment variable sets the
   * default when the service does not.
   */
  grepEngine?: GrepEngine;
  /**
   * Hard time limit of a regular expression that may backtrack, in ms (default 5,000): one
   * `regex_replace`, or one `grep` whose pattern only JavaScript's engine can run (look-arounds,
   * back-references).
   */
  regexTimeoutMs?: number;
  /** Time limit of one `grep` with a linear-time engine (ripgrep, or RE2 built in), in ms (default 20,000). */
  searchTimeoutMs?: number;
  /** Largest slice `read_file` returns at once, in bytes (default 256 KiB). */
  maxReadBytes?: number;
  /**
   * Largest file the edit skills load or write, in bytes (default 32 MiB): a larger result is
   * refused; also the most `copy_file` reads from a file whose size is unknown (`/proc`).
   */
  maxEditBytes?: number;
  /** Longest line shown by `read_file`, `tail` and `grep`, in characters (default 2,000). */
  maxLineLength?: number;
}

/** {@link FileSkillOptions} with every default applied. */
export type ResolvedFileSkillOptions = Required<FileSkillOptions>;

declare module '@nexus/core' {
  interface Services {
    /** Settings of the file skills (`@nexus/skills-fs`). */
    fileSkillOptions: FileSkillOptions;
  }
}

const GREP_ENGINES: readonly GrepEngine[] = ['auto', 'ripgrep', 'builtin'];

/** Default of {@link FileSkillOptions.regexTimeoutMs}: no pattern keeps a skill busy longer. */
export const DEFAULT_REGEX_TIMEOUT_MS = 5_000;

function positiveInteger(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  expectOption(isPositiveNumber(value) && Number.isInteger(value), option, 'a positive integer', value);
  return value;
}

function grepEngine(value: unknown): GrepEngine {
  if (value === undefined || value === '') return 'auto';
  expectOption(GREP_ENGINES.includes(value as GrepEngine), 'grepEngine', `one of ${GREP_ENGINES.join(', ')}`, value);
  return value as GrepEngine;
}

/**
 * The file skills' settings for one agent: the `fileSkillOptions` service merged over the
 * defaults (and `NEXUS_GREP_ENGINE`). Throws an `InvalidOptionError` naming an invalid option.
 */
export function resolveFileSkillOptions(services: ServiceContainer): ResolvedFileSkillOptions {
  const options = services.get('fileSkillOptions') ?? {};
  return {
    grepEngine: grepEngine(options.grepEngine ?? process.env.NEXUS_GREP_ENGINE),
    regexTimeoutMs: positiveInteger('regexTimeoutMs', options.regexTimeoutMs, DEFAULT_REGEX_TIMEOUT_MS),
    searchTimeoutMs: positiveInteger('searchTimeoutMs', options.searchTimeoutMs, 20_000),
    maxReadBytes: positiveInteger('maxReadBytes', options.maxReadBytes, 256 * 1024),
    maxEditBytes: positiveInteger('maxEditBytes', options.maxEditBytes, 32 * 1024 * 1024),
    maxLineLength: positiveInteger('maxLineLength', options.maxLineLength, 2000),
  };
}
