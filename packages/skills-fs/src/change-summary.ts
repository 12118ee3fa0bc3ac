import { structuredPatch } from 'diff';

/** Longest diff shown in a result, in lines. */
const MAX_DIFF_LINES = 80;
/** Lines of unchanged context around each change. */
const CONTEXT_LINES = 2;

/** A change to one file, as reported to the LLM. */
export interface ChangeSummary {
  /** Lines added and removed. */
  added: number;
  removed: number;
  /** A unified diff, shortened to {@link MAX_DIFF_LINES} lines. */
  diff: string;
}

function lines(text: string): string[] {
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/**
 * Summarises the change from `before` to `after` as a short unified diff. The common head and
 * tail are cut off before diffing, so an edit in a large file costs time proportional to the edit.
 */
export function summarizeChange(name: string, before: string, after: string): ChangeSummary {
  const old = lines(before.replace(/\r\n/g, '\n'));
  const next = lines(after.replace(/\r\n/g, '\n'));
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) head++;
  let tail = 0;
  while (tail < old.length - head && tail < next.length - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  const keepHead = Math.max(0, head - CONTEXT_LINES);
  const keepTail = Math.max(0, tail - CONTEXT_LINES);
  const oldMiddle = old.slice(keepHead, old.length - keepTail);
  const newMiddle = next.slice(keepHead, next.length - keepTail);
  const patch = structuredPatch(name, name, `${oldMiddle.join('\n')}\n`, `${newMiddle.join('\n')}\n`, '', '', {
    context: CONTEXT_LINES,
    timeout: 2000,
  });
  if (!patch) {
    return {
      added: next.length - head - tail,
      removed: old.length - head - tail,
      diff: `(diff too large to show: lines ${head + 1}–${old.length - tail} replaced)`,
    };
  }
  let added = 0;
  let removed = 0;
  const out = [`--- ${name}`, `+++ ${name}`];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart + keepHead},${hunk.oldLines} +${hunk.newStart + keepHead},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
      out.push(line);
    }
  }
  if (out.length > MAX_DIFF_LINES) {
    const hidden = out.length - MAX_DIFF_LINES;
    out.length = MAX_DIFF_LINES;
    out.push(`… (${hidden} more diff lines not shown)`);
  }
  return { added, removed, diff: patch.hunks.length === 0 ? '(no changes)' : out.join('\n') };
}

/** One line describing a change, e.g. `+3 −1 lines`, followed by the diff. */
export function describeChange(summary: ChangeSummary): string {
  return `(+${summary.added} −${summary.removed} lines)\n${summary.diff}`;
}
