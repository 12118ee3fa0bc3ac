import { ToolResult } from '@nexus/core';
import { describeChange, summarizeChange } from './change-summary.js';
import type { FileSandbox } from './file-sandbox.js';
import { saveFile, type TextFile } from './text-file.js';

/**
 * Finishes an edit skill: reports "no change" when the text is the same, otherwise writes the new
 * text atomically (unless `dryRun`) and returns what changed as a short diff. `what` describes
 * the edit, e.g. `replaced 2 occurrences`.
 */
export async function commitTextEdit(
  files: FileSandbox,
  file: TextFile,
  text: string,
  options: { dryRun: boolean; what: string },
): Promise<ToolResult> {
  const { dryRun, what } = options;
  if (text === file.text)
    return ToolResult.ok(`No change to ${file.display}: the result is identical.`, { path: file.display, changed: false });
  const change = summarizeChange(file.display, file.text, text);
  const data = { path: file.display, changed: !dryRun, dryRun, added: change.added, removed: change.removed, diff: change.diff };
  if (dryRun) return ToolResult.ok(`Dry run, nothing written. ${file.display} would change: ${what} ${describeChange(change)}`, data);
  await saveFile(files, file.path, text);
  return ToolResult.ok(`Edited ${file.display}: ${what} ${describeChange(change)}`, data);
}
