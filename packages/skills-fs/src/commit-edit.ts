import { ToolResult, withFileLocks } from '@nexus/core';
import { describeChange, summarizeChange } from './change-summary.js';
import type { FileSandbox } from './file-sandbox.js';
import type { LengthLimit } from './text-builder.js';
import { editLimit, encodeText, loadApprovedTextFile, saveFile, type TextFile } from './text-file.js';

/** Options of {@link editTextFile}. */
export interface TextEditOptions {
  /** Only show the diff; nothing is locked or written. */
  dryRun: boolean;
  /** The argument that brings the new text (`new_string`, `replacement`, …), named when the result is too large. */
  parameter: string;
  /** Cancels waiting for the file's lock. */
  signal?: AbortSignal | undefined;
}

/** What an edit made of a file's text, and how to describe it (e.g. `replaced 2 occurrences`). */
export interface TextEditOutcome {
  text: string;
  what: string;
}

/**
 * Finishes an edit skill: reports "no change" when the text is the same, otherwise writes the new
 * text atomically (unless `dryRun`) and returns what changed as a short diff. The write is a
 * compare-and-swap against what `file` read; a result past `maxEditBytes` is refused.
 */
export async function commitTextEdit(
  files: FileSandbox,
  file: TextFile,
  text: string,
  options: TextEditOptions & { what: string },
): Promise<ToolResult> {
  const { dryRun, what, parameter } = options;
  if (text === file.text)
    return ToolResult.ok(`No change to ${file.display}: the result is identical.`, { path: file.display, changed: false });
  const bytes = encodeText(text, file.bom, editLimit(files, file.display, parameter));
  const change = summarizeChange(file.display, file.text, text);
  const data = { path: file.display, changed: !dryRun, dryRun, added: change.added, removed: change.removed, diff: change.diff };
  if (dryRun) return ToolResult.ok(`Dry run, nothing written. ${file.display} would change: ${what} ${describeChange(change)}`, data);
  await saveFile(files, file.path, bytes, { expected: file.snapshot });
  return ToolResult.ok(`Edited ${file.display}: ${what} ${describeChange(change)}`, data);
}

/**
 * One read-modify-write of the existing text file `path` (as the LLM gave it): approves it for
 * writing, then — holding the file's edit lock, so no other edit of it in this process or another
 * Nexus process runs in between — loads it, lets `edit` make the new text, and commits it with
 * {@link commitTextEdit}. `edit` gets the limit its result must keep to (`maxEditBytes`). A dry
 * run takes no lock.
 */
export async function editTextFile(
  files: FileSandbox,
  path: string,
  options: TextEditOptions,
  edit: (file: TextFile, limit: LengthLimit) => TextEditOutcome | Promise<TextEditOutcome>,
): Promise<ToolResult> {
  const real = await files.paths.authorize(path, { access: 'write', mustExist: true });
  const readModifyWrite = async () => {
    const file = await loadApprovedTextFile(files, real);
    const { text, what } = await edit(file, editLimit(files, file.display, options.parameter));
    return commitTextEdit(files, file, text, { ...options, what });
  };
  return options.dryRun ? readModifyWrite() : withFileLocks([real], readModifyWrite, { signal: options.signal });
}
