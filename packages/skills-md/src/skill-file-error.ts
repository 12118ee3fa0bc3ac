import { NexusError } from '@nexus/core';
import { diagnosticAt, type FilePosition, type SkillDiagnostic } from './skill-diagnostic.js';

/** A `SKILL.md` that cannot be loaded: no frontmatter, YAML that does not parse, too large, an alias bomb, a bad definition. */
export class SkillFileError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/skills-md/SkillFileError');
  static override readonly code = 'SKILL_FILE_INVALID';
  /** Absolute path of the file. */
  readonly file: string;
  /** Where in the file the problem is. */
  readonly position: FilePosition;
  /** The reason, without the place. */
  readonly reason: string;

  constructor(file: string, position: FilePosition, reason: string, options?: { cause?: unknown }) {
    super(`${file}:${position.line}:${position.column}: ${reason}`, { ...options, recoverable: false });
    this.file = file;
    this.position = position;
    this.reason = reason;
  }

  /** The error as an `error` diagnostic. */
  toDiagnostic(): SkillDiagnostic {
    return diagnosticAt('error', this.file, this.position, this.reason);
  }
}
