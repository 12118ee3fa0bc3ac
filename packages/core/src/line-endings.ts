/** A line terminator. */
export type LineEnding = '\r\n' | '\n' | '\r';

/**
 * The line ending a text mostly uses: CRLF, LF or a lone CR. Text without line breaks is taken
 * to use LF. Edits keep a file's style by converting what they write to this ending.
 */
export function detectLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 13) {
      if (text.charCodeAt(index + 1) === 10) {
        crlf++;
        index++;
      } else cr++;
    } else if (code === 10) lf++;
  }
  if (crlf > lf && crlf >= cr) return '\r\n';
  if (cr > lf && cr > crlf) return '\r';
  return '\n';
}

/** Rewrites every line break in `text` (CRLF, LF or CR) as `ending`. */
export function convertLineEndings(text: string, ending: LineEnding): string {
  return text.replace(/\r\n|\r|\n/g, ending);
}
