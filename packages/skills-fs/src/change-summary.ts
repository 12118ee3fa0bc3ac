import { structuredPatch } from 'diff';

/** Longest diff shown in a result, in lines. */
const MAX_DIFF_LINES = 80;
/** Lines of unchanged context around each change. */
const CONTEXT_LINES = 2;
/** Largest changed region, in characters on either side, that is diffed line by line; a larger one is summarised by its line counts. */
const MAX_DIFF_CHARACTERS = 512 * 1024;
/** Characters compared at once while looking for the common head and tail. */
const COMPARE_BLOCK = 64 * 1024;

/** A change to one file, as reported to the LLM. */
export interface ChangeSummary {
  /** Lines added and removed. */
  added: number;
  removed: number;
  /** A unified diff, shortened to {@link MAX_DIFF_LINES} lines. */
  diff: string;
}

function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let length = 0;
  while (length < max) {
    const end = Math.min(length + COMPARE_BLOCK, max);
    if (a.slice(length, end) !== b.slice(length, end)) break;
    length = end;
  }
  while (length < max && a.charCodeAt(length) === b.charCodeAt(length)) length++;
  return length;
}

/** Length of the common tail of `a` and `b`, at most `max`. */
function commonSuffixLength(a: string, b: string, max: number): number {
  let length = 0;
  while (length < max) {
    const step = Math.min(COMPARE_BLOCK, max - length);
    if (a.slice(a.length - length - step, a.length - length) !== b.slice(b.length - length - step, b.length - length)) break;
    length += step;
  }
  while (length < max && a.charCodeAt(a.length - 1 - length) === b.charCodeAt(b.length - 1 - length)) length++;
  return length;
}

/** Line breaks in `text` between `start` and `end`, counted without splitting it. */
function countBreaks(text: string, start: number, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', start); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/** Lines of `text` between the line starts `start` and `end` (a last line without a break counts). */
function countLines(text: string, start: number, end: number): number {
  return countBreaks(text, start, end) + (end > start && text.charCodeAt(end - 1) !== 10 ? 1 : 0);
}

/** The start of the line `lines` lines before the line starting at `start`. */
function linesBack(text: string, start: number, lines: number): number {
  let position = start;
  for (let step = 0; step < lines && position > 0; step++) position = position < 2 ? 0 : text.lastIndexOf('\n', position - 2) + 1;
  return position;
}

/** The start of the line `lines` lines after the line starting at `start` (or the end). */
function linesForward(text: string, start: number, lines: number): number {
  let position = start;
  for (let step = 0; step < lines && position < text.length; step++) {
    const next = text.indexOf('\n', position);
    position = next === -1 ? text.length : next + 1;
  }
  return position;
}

/** `text` as lines for the diff: CRLF as LF, ending with a line break. */
function diffInput(text: string): string {
  const lf = text.replace(/\r\n/g, '\n');
  return lf === '' || lf.endsWith('\n') ? lf : `${lf}\n`;
}

/**
 * Summarises the change from `before` to `after` as a short unified diff. The common head and
 * tail are found by comparing characters (no array of lines is made) and cut off before diffing,
 * so an edit in a large file costs time and memory proportional to the edit; a changed region
 * larger than half a MiB is described by its line counts instead.
 */
export function summarizeChange(name: string, before: string, after: string): ChangeSummary {
  const prefix = commonPrefixLength(before, after);
  const head = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  const suffix = commonSuffixLength(before, after, Math.min(before.length, after.length) - head);
  const growth = after.length - before.length;
  // The common tail starts at a line start in both texts: the characters just before it differ.
  let tail = before.length - suffix;
  const atLineStart = (text: string, position: number) => position === 0 || text.charCodeAt(position - 1) === 10;
  if (!atLineStart(before, tail) || !atLineStart(after, tail + growth)) tail = linesForward(before, tail, 1);
  const keepHead = linesBack(before, head, CONTEXT_LINES);
  const keepTail = linesForward(before, tail, CONTEXT_LINES);
  const oldMiddle = before.slice(keepHead, keepTail);
  const newMiddle = after.slice(keepHead, keepTail + growth);
  const tooLarge = oldMiddle.length > MAX_DIFF_CHARACTERS || newMiddle.length > MAX_DIFF_CHARACTERS;
  const patch = tooLarge
    ? undefined
    : structuredPatch(name, name, diffInput(oldMiddle), diffInput(newMiddle), '', '', { context: CONTEXT_LINES, timeout: 2000 });
  if (!patch) {
    const removed = countLines(before, head, tail);
    const first = countBreaks(before, 0, head) + 1;
    return {
      added: countLines(after, head, tail + growth),
      removed,
      diff: `(diff too large to show: lines ${first}–${first + removed - 1} replaced)`,
    };
  }
  const firstLine = countBreaks(before, 0, keepHead);
  let added = 0;
  let removed = 0;
  const out = [`--- ${name}`, `+++ ${name}`];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart + firstLine},${hunk.oldLines} +${hunk.newStart + firstLine},${hunk.newLines} @@`);
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
