/** How bad a {@link SkillDiagnostic} is: an `error` keeps the package from loading, a `warning` does not, a `note` is advice. */
export type DiagnosticSeverity = 'error' | 'warning' | 'note';

/** One problem with a skill package, at a place in one of its files. */
export interface SkillDiagnostic {
  readonly severity: DiagnosticSeverity;
  /** Absolute path of the file (or folder) the problem is in. */
  readonly file: string;
  /** 1-based line, 1 when the problem is about the whole file. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  readonly message: string;
}

/** Where in a file: 1-based line and column. */
export interface FilePosition {
  readonly line: number;
  readonly column: number;
}

/** The start of a file, for problems about a file as a whole. */
export const FILE_START: FilePosition = { line: 1, column: 1 };

/** A diagnostic at `position` of `file`. */
export function diagnosticAt(severity: DiagnosticSeverity, file: string, position: FilePosition, message: string): SkillDiagnostic {
  return { severity, file, line: position.line, column: position.column, message };
}

/** `file:line:col: severity: message`, the form compilers print and editors link. */
export function formatDiagnostic(diagnostic: SkillDiagnostic): string {
  const { file, line, column, severity, message } = diagnostic;
  return `${file}:${line}:${column}: ${severity}: ${message}`;
}
