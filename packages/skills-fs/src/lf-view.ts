import type { LineEnding } from '@nexus/core';
import { type LengthLimit, TextBuilder } from './text-builder.js';
import { inFileLineEndings } from './text-file.js';

/** A replacement of `[start, end)` of an {@link LfView}'s text by `text` (line breaks as LF). */
export type ViewEdit = readonly [start: number, end: number, text: string];

/**
 * A file's text with every CRLF shown as LF (a lone CR is kept: it is no line break to `diff`
 * or `git`), so that a search can match line breaks as `\n` in a file of any style; and the way
 * back, {@link apply}, which makes edits of the view to the original text, so that every byte no
 * edit touched — the CRLF, LF or lone CR of each untouched line — stays as it was.
 */
export class LfView {
  /** The text as searched: the original with CRLF as LF. */
  readonly text: string;
  readonly #original: string;

  constructor(original: string) {
    this.#original = original;
    this.text = original.includes('\r\n') ? original.replaceAll('\r\n', '\n') : original;
  }

  /**
   * The original text with `edits` (in order, not overlapping, offsets in {@link text}) made to
   * it; the line breaks of their new text are written as `ending`. Past `limit`, its error.
   */
  apply(edits: readonly ViewEdit[], ending: LineEnding, limit?: LengthLimit): string {
    const original = this.#original;
    const result = new TextBuilder(limit);
    // Offsets advance together through the view and the original; each CRLF passed is one character longer in the original.
    let viewOffset = 0;
    let originalOffset = 0;
    let nextCrlf = original === this.text ? -1 : original.indexOf('\r\n');
    const toOriginal = (position: number): number => {
      while (nextCrlf !== -1 && viewOffset + (nextCrlf - originalOffset) < position) {
        viewOffset += nextCrlf - originalOffset + 1;
        originalOffset = nextCrlf + 2;
        nextCrlf = original.indexOf('\r\n', originalOffset);
      }
      return originalOffset + (position - viewOffset);
    };
    let copied = 0;
    for (const [start, end, text] of edits) {
      const from = toOriginal(start);
      result.push(original.slice(copied, from));
      result.push(inFileLineEndings(text, ending));
      copied = toOriginal(end);
    }
    result.push(original.slice(copied));
    return result.toString();
  }
}
