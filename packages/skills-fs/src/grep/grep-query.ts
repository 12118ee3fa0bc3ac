/** A search, as both engines take it. */
export interface GrepQuery {
  /** Real path of the file or directory to search. */
  root: string;
  /** Whether `root` is a directory. */
  rootIsDirectory: boolean;
  /** Regular expression source (JavaScript syntax; ripgrep's is close enough for most patterns). */
  pattern: string;
  ignoreCase: boolean;
  recursive: boolean;
  /** Glob of files to search (`*.ts`, `src/**\/*.py`). */
  include: string | undefined;
  /** Lines of context before and after each match. */
  context: number;
  /** Most matching lines in all. */
  maxMatches: number;
  /** Longest line kept, in characters. */
  maxLineLength: number;
  /** Time limit of a search with a linear-time engine (ripgrep, RE2). */
  timeoutMs: number;
  /** Time limit of a search with JavaScript's backtracking RegExp (look-arounds, back-references). */
  regexTimeoutMs: number;
  signal: AbortSignal | undefined;
}

/** One line of output: a match or a context line. */
export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
}

/** The lines found in one file. */
export interface GrepFileResult {
  /** Real absolute path. */
  file: string;
  lines: GrepLine[];
}

/** What an engine found. */
export interface GrepOutcome {
  files: GrepFileResult[];
  /** Matches may have been left out: ripgrep's output reached its cap. */
  truncated: boolean;
}

/** Directories neither engine descends into. */
export { SKIPPED_DIRECTORIES } from '../walk-files.js';

/** Cuts a line to `maxLength` characters the same way for both engines. */
export function cutLine(text: string, maxLength: number): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.length <= maxLength ? line : `${line.slice(0, maxLength)}… [line cut at ${maxLength} characters]`;
}
