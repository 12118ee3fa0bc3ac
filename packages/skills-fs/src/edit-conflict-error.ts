import { NexusError } from '@nexus/core';

/** What happened to a file while an edit of it was being made. */
export type EditConflictReason = 'changed' | 'created' | 'removed';

const WHAT_HAPPENED: Record<EditConflictReason, string> = {
  changed: 'changed on disk while it was being edited (another program wrote to it)',
  created: 'was created by another program while this write was being prepared',
  removed: 'was removed while it was being edited',
};

/**
 * Thrown when a file changed between an edit's read and its write (compare-and-swap): nothing was
 * written, so no one's change is lost. A recoverable `execution_failed` result that says to read
 * the file again, with `{ path, reason, code: 'EDIT_CONFLICT' }` as data.
 */
export class EditConflictError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/skills-fs/EditConflictError');
  static override readonly code = 'EDIT_CONFLICT';
  static override readonly kind = 'execution_failed';
  /** The file as shown to the LLM. */
  readonly path: string;
  readonly reason: EditConflictReason;
  constructor(path: string, reason: EditConflictReason) {
    super(`Nothing was written: ${path} ${WHAT_HAPPENED[reason]}. Read it again, then retry.`, {
      recoverable: true,
      data: { path, reason, code: EditConflictError.code },
    });
    this.path = path;
    this.reason = reason;
  }
}
