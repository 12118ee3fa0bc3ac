import { formatDiagnostic, type SkillDiagnostic } from './skill-diagnostic.js';

type DiagnosticListener = (diagnostic: SkillDiagnostic) => void;

function errorsOf(diagnostics: readonly SkillDiagnostic[]): SkillDiagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
}

/**
 * Tells listeners of each new error: the errors current at the last report are remembered, so an
 * error that stays is told once, and one that comes back after it was fixed is told again.
 */
export class DiagnosticReports {
  readonly #listeners = new Set<DiagnosticListener>();
  #reported = new Set<string>();

  /** Calls `listener` with each new error; returns a function that stops it. */
  listen(listener: DiagnosticListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Takes the errors among `diagnostics` as known, telling no one (those of the start). */
  know(diagnostics: readonly SkillDiagnostic[]): void {
    this.#reported = new Set(errorsOf(diagnostics).map(formatDiagnostic));
  }

  /** Tells the listeners of each error among `diagnostics` that was not current at the last report. */
  report(diagnostics: readonly SkillDiagnostic[]): void {
    const errors = errorsOf(diagnostics);
    for (const error of errors) if (!this.#reported.has(formatDiagnostic(error))) for (const listener of this.#listeners) listener(error);
    this.#reported = new Set(errors.map(formatDiagnostic));
  }

  close(): void {
    this.#listeners.clear();
  }
}
