import type { StructuredPatch, StructuredPatchHunk } from 'diff';
import { type LengthLimit, TextBuilder } from './text-builder.js';

/**
 * Applies the hunks of a unified diff to a text, the way `diff`'s `applyPatch` does (the same
 * search for where each hunk fits, the same fuzz), but on offsets into the text instead of an
 * array of its lines, so a patch to a file of millions of lines costs memory in proportion to the
 * file (4 bytes a line for the index), not to its line count; and so that it changes only the
 * lines the hunks touch. Lines are split on LF only — a lone CR stays inside its line, as `diff`
 * and `git` see it — and compared without the CR of a CRLF, so context lines match whatever line
 * breaks the file has, and every line no hunk removes keeps its bytes. Added lines get `ending`.
 *
 * The fitting follows jsdiff 8's `applyPatch` (BSD-3-Clause, Kevin Decker and contributors).
 */

/** How a context or removed line of a hunk is compared with a line of the file. */
export type LineComparison = 'exact' | 'ignore-whitespace';

/** Options of {@link applyHunks}. */
export interface ApplyHunksOptions {
  /** Most context lines that may differ (missing, extra or changed) for a hunk to fit; 0 in strict mode. */
  fuzzFactor: number;
  comparison: LineComparison;
  /** The line break of added lines: `\r\n` for a CRLF file, else `\n`. */
  ending: '\n' | '\r\n';
  limit?: LengthLimit | undefined;
}

/** Where a hunk did not fit: its index in the patch. */
export class HunkMismatch extends Error {
  constructor(readonly hunk: number) {
    super(`hunk ${hunk + 1} does not apply`);
  }
}

/** The lines of a text, found by their start offsets; `pop` and `push` model jsdiff's handling of the final newline. */
class LineTable {
  readonly #text: string;
  readonly #starts: Uint32Array;
  /** Lines as jsdiff counts them (`text.split('\n').length`), after {@link pop} or {@link pushEmpty}. */
  length: number;

  constructor(text: string) {
    this.#text = text;
    let breaks = 0;
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) breaks++;
    this.#starts = new Uint32Array(breaks + 1);
    let line = 1;
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) this.#starts[line++] = index + 1;
    this.length = breaks + 1;
  }

  #rawLength(): number {
    return this.#starts.length;
  }

  /** Line `index`, without its LF (a CR before it stays); `undefined` past the end. */
  get(index: number): string | undefined {
    if (index < 0 || index >= this.length) return undefined;
    if (index >= this.#rawLength()) return '';
    const start = this.#starts[index] as number;
    const end = index + 1 < this.#rawLength() ? (this.#starts[index + 1] as number) - 1 : this.#text.length;
    return this.#text.slice(start, end);
  }

  /**
   * Lines `from` to `to` (exclusive) joined with LF, as one slice of the text. Lines past the text
   * (the one {@link pushEmpty} adds, or any past the end, where jsdiff lets a pure insertion fit)
   * are empty.
   */
  range(from: number, to: number): string {
    if (from >= to) return '';
    const rawTo = Math.min(to, this.#rawLength());
    if (from >= rawTo) return '\n'.repeat(to - from - 1);
    const end = rawTo < this.#rawLength() ? (this.#starts[rawTo] as number) - 1 : this.#text.length;
    return this.#text.slice(this.#starts[from] as number, end) + '\n'.repeat(to - rawTo);
  }

  /** Drops the empty last line (the text loses its final newline). */
  pop(): void {
    this.length--;
  }

  /** Adds an empty last line (the text gains a final newline). */
  pushEmpty(): void {
    this.length++;
  }
}

/** `start` (wherever it is), then positions outwards within [min, max]: start+1, start-1, start+2, … (jsdiff's distance iterator). */
function* outwards(start: number, min: number, max: number): Generator<number> {
  yield start;
  for (let offset = 1; start + offset <= max || start - offset >= min; offset++) {
    if (start + offset <= max) yield start + offset;
    if (start - offset >= min) yield start - offset;
  }
}

interface Fitted {
  /** The new lines for the fitted region: indices of file lines (numbers) or added text (strings). */
  lines: (number | string)[];
  /** Index of the last file line the hunk covered. */
  lastLine: number;
}

/**
 * Applies `patch` to `text`; throws a {@link HunkMismatch} naming the first hunk that fits
 * nowhere, or the limit's error when the result grows past `limit`.
 */
export function applyHunks(text: string, patch: StructuredPatch, options: ApplyHunksOptions): string {
  const { fuzzFactor, comparison, ending, limit } = options;
  const hunks = patch.hunks;
  const lines = new LineTable(text);
  const same =
    comparison === 'exact'
      ? (line: string, content: string) => line.replace(/\r$/, '') === content.replace(/\r$/, '')
      : (line: string, content: string) => line.trim() === content.trim();
  const compare = (index: number, content: string) => {
    const line = lines.get(index);
    return line !== undefined && same(line, content);
  };

  // The final newline, as jsdiff handles it: a "\ No newline at end of file" after the last hunk's + or - line.
  const last = hunks[hunks.length - 1];
  let removeFinalNewline = false;
  let addFinalNewline = false;
  let previous = '';
  for (const line of last?.lines ?? []) {
    if (line.startsWith('\\')) {
      if (previous.startsWith('+')) removeFinalNewline = true;
      else if (previous.startsWith('-')) addFinalNewline = true;
    }
    previous = line;
  }
  const endsWithNewline = () => lines.get(lines.length - 1) === '';
  if (removeFinalNewline && !addFinalNewline) {
    if (endsWithNewline()) lines.pop();
    else if (!fuzzFactor) throw new HunkMismatch(hunks.length - 1);
  } else if (removeFinalNewline && addFinalNewline) {
    if (!fuzzFactor && endsWithNewline()) throw new HunkMismatch(hunks.length - 1);
  } else if (addFinalNewline) {
    if (!endsWithNewline()) lines.pushEmpty();
    else if (!fuzzFactor) throw new HunkMismatch(hunks.length - 1);
  }

  /** Added lines take the file's line break; the last one before "\ No newline at end of file" has none. */
  const addedLine = (hunk: StructuredPatchHunk, index: number, content: string) => {
    const bare = content.replace(/\r$/, '');
    return ending === '\r\n' && !hunk.lines[index + 1]?.startsWith('\\') ? `${bare}\r` : bare;
  };

  const fit = (
    hunk: StructuredPatchHunk,
    position: number,
    maxErrors: number,
    hunkIndex = 0,
    lastContextMatched = true,
    fitted: (number | string)[] = [],
  ): Fitted | undefined => {
    let toPosition = position;
    let trailingContext = 0;
    let nextContextMustMatch = false;
    for (let index = hunkIndex; index < hunk.lines.length; index++) {
      const hunkLine = hunk.lines[index] as string;
      const operation = hunkLine.length > 0 ? hunkLine[0] : ' ';
      const content = hunkLine.length > 0 ? hunkLine.slice(1) : hunkLine;
      if (operation === '-') {
        if (compare(toPosition, content)) {
          toPosition++;
          trailingContext = 0;
        } else {
          if (!maxErrors || lines.get(toPosition) === undefined) return undefined;
          return fit(hunk, toPosition + 1, maxErrors - 1, index, false, [...fitted, toPosition]);
        }
      }
      if (operation === '+') {
        if (!lastContextMatched) return undefined;
        fitted.push(addedLine(hunk, index, content));
        trailingContext = 0;
        nextContextMustMatch = true;
      }
      if (operation === ' ') {
        trailingContext++;
        if (compare(toPosition, content)) {
          fitted.push(toPosition);
          lastContextMatched = true;
          nextContextMustMatch = false;
          toPosition++;
        } else {
          if (nextContextMustMatch || !maxErrors) return undefined;
          // As in jsdiff, an empty file line is never taken for a substitution or an insertion.
          return (
            (Boolean(lines.get(toPosition)) &&
              (fit(hunk, toPosition + 1, maxErrors - 1, index + 1, false, [...fitted, toPosition]) ||
                fit(hunk, toPosition + 1, maxErrors - 1, index, false, [...fitted, toPosition]))) ||
            fit(hunk, toPosition, maxErrors - 1, index + 1, false, [...fitted])
          );
        }
      }
    }
    // Unchanged context at the end is left to the text, so a later hunk may fit over it.
    fitted.length -= trailingContext;
    return { lines: fitted, lastLine: toPosition - trailingContext - 1 };
  };

  const result = new TextBuilder(limit);
  let first = true;
  const pushLines = (piece: string) => {
    if (!first) result.push('\n');
    result.push(piece);
    first = false;
  };
  let minLine = 0;
  let previousOffset = 0;
  hunks.forEach((hunk, hunkIndex) => {
    const maxLine = lines.length - hunk.oldLines + fuzzFactor;
    let fitted: Fitted | undefined;
    let at = 0;
    for (let maxErrors = 0; maxErrors <= fuzzFactor && !fitted; maxErrors++) {
      for (const position of outwards(hunk.oldStart + previousOffset - 1, minLine, maxLine)) {
        fitted = fit(hunk, position, maxErrors);
        if (fitted) {
          at = position;
          break;
        }
      }
    }
    if (!fitted) throw new HunkMismatch(hunkIndex);
    if (at > minLine) pushLines(lines.range(minLine, at));
    for (const line of fitted.lines) pushLines(typeof line === 'number' ? (lines.get(line) as string) : line);
    minLine = Math.max(0, fitted.lastLine + 1);
    previousOffset = at + 1 - hunk.oldStart;
  });
  if (minLine < lines.length) pushLines(lines.range(minLine, lines.length));
  return result.toString();
}
