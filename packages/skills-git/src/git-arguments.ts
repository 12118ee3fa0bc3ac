/** A global option given before the subcommand (`-C dir`, `--git-dir=x`, `--no-pager` …). */
export interface GlobalOption {
  /** The option as git spells it, without a value: `-C`, `--git-dir`, `-c`. */
  readonly name: string;
  /** Its value, when it takes one. */
  readonly value: string | undefined;
  /** The words it occupied in argv. */
  readonly words: readonly string[];
}

/** A git command line split into global options, subcommand and the subcommand's arguments. */
export interface ParsedGitCommand {
  readonly globals: readonly GlobalOption[];
  /** `undefined` when the command line holds only global options. */
  readonly subcommand: string | undefined;
  /** Arguments after the subcommand. */
  readonly rest: readonly string[];
}

// Global options that take the next word as their value when not written `--name=value` (git.c).
const GLOBALS_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--list-cmds',
]);
const GLOBALS_ATTACHED_ONLY = new Set(['--exec-path']);

/** Splits git's argv the way git.c reads its global options: the subcommand is the first word after them. */
export function parseGitArguments(argv: readonly string[]): ParsedGitCommand {
  const globals: GlobalOption[] = [];
  let index = 0;
  while (index < argv.length) {
    const word = argv[index] as string;
    if (!word.startsWith('-')) break;
    const equals = word.indexOf('=');
    const name = word.startsWith('--') && equals > 0 ? word.slice(0, equals) : word;
    // git treats `--version` as the `version` command.
    if (name === '--version' || name === '-v') return { globals, subcommand: 'version', rest: argv.slice(index + 1) };
    if (equals > 0 && word.startsWith('--') && (GLOBALS_WITH_VALUE.has(name) || GLOBALS_ATTACHED_ONLY.has(name))) {
      globals.push({ name, value: word.slice(equals + 1), words: [word] });
      index++;
    } else if (GLOBALS_WITH_VALUE.has(name)) {
      globals.push({ name, value: argv[index + 1], words: argv.slice(index, index + 2) });
      index += 2;
    } else {
      globals.push({ name, value: undefined, words: [word] });
      index++;
    }
  }
  return { globals, subcommand: argv[index], rest: argv.slice(index + 1) };
}

/** Arguments before a `--` separator (the options and revisions part). */
export function beforeSeparator(args: readonly string[]): readonly string[] {
  const separator = args.indexOf('--');
  return separator === -1 ? args : args.slice(0, separator);
}

/** The option name of a long option word: `--output` for `--output=x`. */
export function longOptionName(word: string): string {
  const equals = word.indexOf('=');
  return equals === -1 ? word : word.slice(0, equals);
}

/** Whether a word is a bundle of short options (`-fd`), not a long option or a lone `-`. */
export function isShortOptionBundle(word: string): boolean {
  return word.length > 1 && word.startsWith('-') && !word.startsWith('--');
}

/**
 * Whether `args` (before any `--`) contain one of the long options (exactly or as `--name=value`)
 * or one of the short option letters, alone or bundled (`-fd` holds `f`).
 */
export function hasOption(args: readonly string[], longNames: readonly string[], shortLetters = ''): boolean {
  return beforeSeparator(args).some((word) => {
    if (word.startsWith('--')) return longNames.includes(longOptionName(word));
    return isShortOptionBundle(word) && [...word.slice(1)].some((letter) => shortLetters.includes(letter));
  });
}

/** Words that are not options (before `--`), and everything after `--`. */
export function positionalArguments(args: readonly string[], valueOptions: ReadonlySet<string> = new Set()): string[] {
  const positionals: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as string;
    if (word === '--') return [...positionals, ...args.slice(index + 1)];
    if (word.startsWith('-') && word !== '-') {
      if (valueOptions.has(word)) index++;
      continue;
    }
    positionals.push(word);
  }
  return positionals;
}
