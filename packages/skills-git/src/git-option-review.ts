import { type PathAccess, PermissionDeniedError } from '@nexus/core';
import { isShortOptionBundle, longOptionName, type ParsedGitCommand } from './git-arguments.js';

/** A path named by a git command line that must stay inside the sandbox. */
export interface NamedPath {
  readonly path: string;
  readonly access: PathAccess;
  /** Where it came from, for messages: `-C`, `--contents`, `argument`. */
  readonly source: string;
}

type Rule = { refuse: string } | { path: PathAccess };

const RUNS_PROGRAM = 'it names a program for git to run';
const SETS_CONFIG = 'it sets configuration, which can make git run programs';

/** Global options accepted below yolo; anything else (`-c`, `--exec-path`, `-p` …) is refused. */
const ALLOWED_GLOBALS: Readonly<Record<string, 'path' | 'flag'>> = {
  '-C': 'path',
  '--git-dir': 'path',
  '--work-tree': 'path',
  '--namespace': 'flag',
  '--no-pager': 'flag',
  '-P': 'flag',
  '--no-replace-objects': 'flag',
  '--literal-pathspecs': 'flag',
  '--glob-pathspecs': 'flag',
  '--noglob-pathspecs': 'flag',
  '--icase-pathspecs': 'flag',
  '--no-optional-locks': 'flag',
  '--bare': 'flag',
};

const GLOBAL_REFUSALS: Readonly<Record<string, string>> = {
  '-c': SETS_CONFIG,
  '--config-env': SETS_CONFIG,
  '--exec-path': 'it makes git run its helper programs from another directory',
  '-p': 'it runs a pager program',
  '--paginate': 'it runs a pager program',
  '--help': 'it starts a manual viewer or a browser',
};

/** Long options of any subcommand that run programs, write anywhere, or name paths. */
const LONG_OPTION_RULES: Readonly<Record<string, Rule>> = {
  '--upload-pack': { refuse: RUNS_PROGRAM },
  '--receive-pack': { refuse: RUNS_PROGRAM },
  '--exec': { refuse: RUNS_PROGRAM },
  '--exec-path': { refuse: RUNS_PROGRAM },
  '--config': { refuse: SETS_CONFIG },
  '--config-env': { refuse: SETS_CONFIG },
  '--open-files-in-pager': { refuse: 'it runs a pager program' },
  '--ext-diff': { refuse: 'it runs external diff programs' },
  '--textconv': { refuse: 'it runs textconv filter programs' },
  '--filters': { refuse: 'it runs filter programs' },
  '--output': { refuse: 'it writes a file wherever it points' },
  '--no-index': { refuse: 'it reads files outside the repository' },
  '--help': { refuse: 'it starts a manual viewer or a browser' },
  '--template': { refuse: 'a template directory installs hooks, which are programs' },
  '--output-directory': { path: 'write' },
  '--separate-git-dir': { path: 'write' },
  '--index-output': { path: 'write' },
  '--contents': { path: 'read' },
  '--ignore-revs-file': { path: 'read' },
  '--exclude-from': { path: 'read' },
  '--pathspec-from-file': { path: 'read' },
  '--file': { path: 'read' },
  '--reference': { path: 'read' },
  '--reference-if-able': { path: 'read' },
};

/** Per-subcommand exceptions to {@link LONG_OPTION_RULES}. */
const SUBCOMMAND_LONG_RULES: Readonly<Record<string, Readonly<Record<string, Rule>>>> = {
  commit: { '--template': { path: 'read' } },
};

/** Short options that run programs or name paths, by subcommand. */
const SHORT_OPTION_RULES: Readonly<Record<string, Readonly<Record<string, Rule>>>> = {
  clone: { u: { refuse: RUNS_PROGRAM }, c: { refuse: SETS_CONFIG } },
  'ls-remote': { u: { refuse: RUNS_PROGRAM } },
  archive: { o: { refuse: 'it writes a file wherever it points' } },
  grep: { O: { refuse: 'it runs a pager program' }, f: { path: 'read' } },
  'format-patch': { o: { path: 'write' } },
  blame: { S: { path: 'read' } },
  annotate: { S: { path: 'read' } },
  'ls-files': { X: { path: 'read' } },
  commit: { F: { path: 'read' }, t: { path: 'read' } },
  tag: { F: { path: 'read' } },
  ...Object.fromEntries(
    ['diff', 'log', 'show', 'whatchanged', 'diff-tree', 'diff-files', 'diff-index'].map((name) => [name, { O: { path: 'read' as const } }]),
  ),
};

/**
 * Options the skill inspects by name (above, and in the blocked patterns). git accepts any unique
 * prefix of a long option (`--upload-pa` means `--upload-pack`), so a prefix of one of these is
 * refused rather than guessed at.
 */
const INSPECTED_LONG_OPTIONS: readonly string[] = [
  ...Object.keys(LONG_OPTION_RULES),
  '--force',
  '--force-with-lease',
  '--force-if-includes',
  '--hard',
  '--merge',
  '--delete',
  '--mirror',
  '--prune',
  '--discard-changes',
  '--force-create',
  '--worktree',
  '--global',
  '--system',
  '--blob',
  '--edit',
];

/** Real options that happen to be prefixes of inspected ones. */
const FULL_OPTIONS_THAT_ARE_PREFIXES = new Set(['--text', '--exclude', '--index', '--filter', '--ignore-rev']);

/** Options whose separate value is not a path (so `--author /x` is not mistaken for one). */
const VALUE_OPTIONS = new Set([
  '--author',
  '--committer',
  '--grep',
  '--since',
  '--until',
  '--after',
  '--before',
  '-S',
  '-G',
  '-n',
  '--max-count',
  '--skip',
  '--format',
  '--pretty',
  '-e',
  '-m',
  '--message',
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--sort',
  '-L',
  '--date',
  '-b',
  '-B',
  '--branch',
  '--origin',
  '-o',
  '--depth',
  '-j',
  '--jobs',
  '--shallow-since',
  '--shallow-exclude',
  '--server-option',
  '--reason',
]);

/** Which positional argument a command writes to: `clone <repo> <dir>`, `init <dir>`, `worktree add <path>`. */
const DESTINATION: Readonly<Record<string, (positionals: readonly string[]) => number>> = {
  clone: (positionals) => (positionals.length >= 2 ? positionals.length - 1 : -1),
  init: () => 0,
  worktree: (positionals) => (positionals[0] === 'add' ? 1 : -1),
};

const TRANSPORT = /(?:ext|fd)::/i;

function refuse(option: string, reason: string): never {
  throw new PermissionDeniedError(`\`${option}\` is refused below yolo: ${reason}.`);
}

function looksLikePath(word: string): boolean {
  return word.startsWith('/') || /(^|\/)\.\.(\/|$)/.test(word);
}

function reviewGlobals(parsed: ParsedGitCommand, access: PathAccess, paths: NamedPath[]): void {
  for (const { name, value } of parsed.globals) {
    const kind = ALLOWED_GLOBALS[name];
    if (kind === undefined)
      refuse(
        name,
        GLOBAL_REFUSALS[name] ?? 'it is not one of the global options accepted below yolo (-C, --git-dir, --work-tree, --no-pager …)',
      );
    if (kind === 'path' && value !== undefined && name !== '-C') paths.push({ path: value, access, source: name });
  }
}

/**
 * Checks the arguments of a git command for anything that could run a program or reach outside
 * the sandbox below yolo, and lists the paths it names (for the caller to authorize). Throws a
 * {@link PermissionDeniedError} for: global options other than the allowed few (`-c`,
 * `--config-env`, `--exec-path` …); options that run programs (`--upload-pack`, `--receive-pack`,
 * `--exec`, `clone -u`/`-c`, `grep -O`, `--ext-diff`, `--textconv`, `--help` …) or write anywhere
 * (`--output`); abbreviations of inspected options; `ext::`/`fd::` transports in any case.
 * `-C` values are left to the caller, which resolves them in order.
 */
export function reviewGitOptions(parsed: ParsedGitCommand, readOnly: boolean): NamedPath[] {
  const paths: NamedPath[] = [];
  reviewGlobals(parsed, readOnly ? 'read' : 'write', paths);
  const subcommand = parsed.subcommand ?? '';
  const longRules = { ...LONG_OPTION_RULES, ...SUBCOMMAND_LONG_RULES[subcommand] };
  const shortRules = SHORT_OPTION_RULES[subcommand] ?? {};
  const { rest } = parsed;
  const positionals: string[] = [];
  let optionsEnded = false;
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index] as string;
    if (TRANSPORT.test(word)) refuse(word, 'the ext:: and fd:: transports run arbitrary commands');
    if (optionsEnded || !word.startsWith('-') || word === '-') {
      positionals.push(word);
      continue;
    }
    if (word === '--') {
      optionsEnded = true;
      continue;
    }
    if (word.startsWith('--')) {
      const name = longOptionName(word);
      const rule = longRules[name];
      if (rule && 'refuse' in rule) refuse(name, rule.refuse);
      if (rule) {
        const value = word.length > name.length ? word.slice(name.length + 1) : rest[++index];
        if (value !== undefined) paths.push({ path: value, access: rule.path, source: name });
        continue;
      }
      const meant = INSPECTED_LONG_OPTIONS.find((option) => option.startsWith(name) && option !== name);
      if (meant && !INSPECTED_LONG_OPTIONS.includes(name) && !FULL_OPTIONS_THAT_ARE_PREFIXES.has(name)) {
        refuse(name, `it looks like an abbreviation of \`${meant}\` (git accepts unique prefixes); spell options out in full`);
      }
      if (VALUE_OPTIONS.has(word)) index++;
      continue;
    }
    if (!isShortOptionBundle(word)) continue;
    const letter = [...word.slice(1)].findIndex((candidate) => shortRules[candidate] !== undefined) + 1;
    const rule = letter > 0 ? shortRules[word[letter] as string] : undefined;
    if (rule && 'refuse' in rule) refuse(`-${word[letter]}`, rule.refuse);
    if (rule) {
      const value = word.length > letter + 1 ? word.slice(letter + 1) : rest[++index];
      if (value !== undefined) paths.push({ path: value, access: rule.path, source: `-${word[letter]}` });
    } else if (VALUE_OPTIONS.has(word)) index++;
  }
  const destination = readOnly ? -1 : (DESTINATION[subcommand]?.(positionals) ?? -1);
  positionals.forEach((word, position) => {
    if (position === destination) paths.push({ path: word, access: 'write', source: 'destination' });
    else if (looksLikePath(word)) paths.push({ path: word, access: 'read', source: 'argument' });
  });
  return paths;
}
