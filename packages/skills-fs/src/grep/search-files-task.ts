import type { TaskMessage } from '../worker-task.js';
import type { GrepLine } from './grep-query.js';

/** What one search task is given (copied into its worker thread). */
export interface SearchJob {
  files: string[];
  /** The pattern for RE2 with its flags inline (see linearSource); `undefined`: JavaScript's RegExp runs it. */
  linearSource: string | undefined;
  /** Where the worker loads re2js from. */
  re2jsModule: string;
  /** The pattern and flags for JavaScript's RegExp. */
  source: string;
  flags: string;
  /** Whether many lines may be tested at once before testing them one by one (false with look-arounds). */
  prefilter: boolean;
  /** The pattern has a `$`: RE2's multi-line `$` does not match before a CR, so CRLF text is tested line by line. */
  endAnchor: boolean;
  /** The pattern when it is a plain, case-sensitive string: chunks without it are skipped undecoded. */
  literal: string | undefined;
  context: number;
  maxMatches: number;
  maxLineLength: number;
  /** Longest line searched as one string; a longer one is searched in overlapping windows. */
  maxLineBytes: number;
  /** Characters a window of a long line adds to what the windows before it searched. */
  windowChars: number;
  /** Characters a window of a long line shares with the one before it; see {@link WINDOW_OVERLAP_CHARS}. */
  windowOverlap: number;
  /** Size of one read. */
  chunkBytes: number;
  /** Set to 1 by the main thread when it has enough matches. */
  stop: SharedArrayBuffer;
}

/** What the task reports for a file with matches. */
export interface FileReport {
  index: number;
  lines: GrepLine[];
}

/** Characters a window of a long line adds: the unit in which memory grows, whatever the line. */
export const WINDOW_CHARS = 1024 * 1024;

/**
 * Characters consecutive windows of a long line share. A match of fewer characters (counting
 * what its look-arounds read) lies whole in some window, so it is never missed; a longer one is
 * found only when it does not cross a window border. (Whole lines, up to `maxLineBytes`, have no
 * such limit.)
 */
export const WINDOW_OVERLAP_CHARS = 64 * 1024;

/**
 * A task (see runWorkerTask) that reads each file in chunks of whole lines and reports matching
 * lines with their context, one message per file. A chunk, then each block of lines, without any
 * match is skipped after one regex run. Binary files (a NUL byte in the first 8,000) are skipped.
 *
 * A line longer than `maxLineBytes` is decoded as it is read and searched in windows of
 * `windowChars + windowOverlap` characters that overlap by `windowOverlap`, so memory stays
 * bounded whatever the line. A window cut inside the line is searched for the pattern with one
 * character of the line before and after it (`[\s\S](?:pattern)[\s\S]`): `^`, `$` and `\b` then
 * never match at a cut, and a match found is a match in the whole line.
 *
 * A matching line longer than `maxLineLength` is shown from its start when its first match ends
 * within `maxLineLength` characters (as ripgrep shows it), and otherwise as `maxLineLength`
 * characters around that match, with `…[cut N characters]…` where it was cut.
 *
 * Self-contained, as runWorkerTask requires: the helpers are nested inside.
 */
export function searchFiles(job: SearchJob, post: (message: TaskMessage) => void): void {
  const { openSync, readSync, closeSync } = process.getBuiltinModule('node:fs');
  const { StringDecoder } = process.getBuiltinModule('node:string_decoder');
  const stop = new Int32Array(job.stop);
  const maxLength = job.maxLineLength;
  const overlap = Math.max(job.windowOverlap, (job.literal?.length ?? 0) + 1);

  /** Where a slice of a line is cut: bit 1, it starts inside the line; bit 2, it ends inside it. */
  type Cuts = number;
  /** Wraps a pattern so that it matches only away from where a slice of a line is cut. */
  const guarded = (source: string, cuts: Cuts) => `${cuts & 1 ? '[\\s\\S]' : ''}(?:${source})${cuts & 2 ? '[\\s\\S]' : ''}`;
  let testLine: (line: string) => boolean;
  /** Tests many lines at once (`^` and `$` at each line). */
  let testLines: (lines: string) => boolean;
  /** Whether a slice of a line holds a match. */
  let testSlice: (text: string, cuts: Cuts) => boolean;
  /** The first match in a slice of a line, as [start, end). */
  let findSlice: (text: string, cuts: Cuts) => [number, number] | undefined;
  /** RE2 finds where a match is with its NFA, ten times slower than it tests with its DFA. */
  let findIsSlow = false;
  if (job.linearSource !== undefined) {
    const { createRequire } = process.getBuiltinModule('node:module');
    const { RE2JS } = createRequire(job.re2jsModule)(job.re2jsModule) as typeof import('re2js');
    const line = RE2JS.compile(job.linearSource);
    const lines = RE2JS.compile(`(?m)${job.linearSource}`);
    testLine = (text) => line.test(text);
    testLines = (text) => lines.test(text);
    const variants: ReturnType<typeof RE2JS.compile>[] = [];
    const variant = (cuts: Cuts) => (variants[cuts] ??= RE2JS.compile(guarded(job.linearSource as string, cuts)));
    testSlice = (text, cuts) => variant(cuts).test(text);
    findSlice = (text, cuts) => {
      const matcher = variant(cuts).matcher(text);
      return matcher.find() ? [matcher.start() + (cuts & 1), matcher.end() - (cuts >> 1)] : undefined;
    };
    findIsSlow = true;
  } else {
    const line = new RegExp(job.source, job.flags);
    const lines = new RegExp(job.source, `${job.flags}m`);
    testLine = (text) => line.test(text);
    testLines = (text) => lines.test(text);
    const variants: RegExp[] = [];
    const variant = (cuts: Cuts) => (variants[cuts] ??= new RegExp(guarded(job.source, cuts), job.flags));
    testSlice = (text, cuts) => variant(cuts).test(text);
    findSlice = (text, cuts) => {
      const match = variant(cuts).exec(text);
      return match ? [match.index + (cuts & 1), match.index + match[0].length - (cuts >> 1)] : undefined;
    };
  }
  const { literal } = job;
  if (literal !== undefined) {
    findSlice = (text, cuts) => {
      const at = text.indexOf(literal, cuts & 1);
      return at !== -1 && at + literal.length <= text.length - (cuts >> 1) ? [at, at + literal.length] : undefined;
    };
    testSlice = (text, cuts) => findSlice(text, cuts) !== undefined;
    findIsSlow = false;
  }

  /**
   * The first match in a window of a line, known to hold one. Where finding is slow, the window
   * is first narrowed down by testing slices of `2 × overlap` characters that overlap by `overlap`.
   * `undefined` when only a match longer than `overlap` is there, which no slice holds whole.
   */
  const locate = (text: string, cuts: Cuts): [number, number] | undefined => {
    if (!findIsSlow || text.length <= 2 * overlap) return findSlice(text, cuts);
    for (let from = 0; from < text.length; from += overlap) {
      const to = Math.min(text.length, from + 2 * overlap);
      const sliceCuts = (from > 0 ? 1 : cuts & 1) | (to < text.length ? 2 : cuts & 2);
      const slice = text.slice(from, to);
      if (testSlice(slice, sliceCuts)) {
        const found = findSlice(slice, sliceCuts);
        return found && [from + found[0], from + found[1]];
      }
      if (to === text.length) break;
    }
    return undefined;
  };

  const cut = (text: string): string =>
    text.length <= maxLength ? text : `${text.slice(0, maxLength)}… [line cut at ${maxLength} characters]`;

  /** A line searched piece by piece: {@link LineScan.feed} its text, then {@link LineScan.end}. */
  interface LineScan {
    feed(piece: string): void;
    /** `trailingCr`: a CR at the end is the line's terminator, not its text. */
    end(trailingCr: boolean): { matched: boolean; shown: string; head: string };
  }
  /** Searches a line in windows (see searchFiles), holding about two windows of it at a time. */
  const scanLine = (): LineScan => {
    /** The line's first `maxLength + 1` characters. */
    let head = '';
    /** Characters from `base` on, not yet searched through. */
    let pending = '';
    let base = 0;
    let length = 0;
    let lastCode = -1;
    /** A match ends within the head; or one is there but could not be placed. */
    let showHead = false;
    /** A match past the head was found: `shown` holds the characters around it, from `shownFrom` on. */
    let placed = false;
    let shown = '';
    let shownFrom = 0;
    const done = () => showHead || placed;
    const searchWindow = (text: string, cuts: Cuts) => {
      if (findIsSlow && !testSlice(text, cuts)) return;
      const at = locate(text, cuts);
      if (!at) {
        // RE2 found a match that no slice holds whole: the line matches, its match is not placed.
        showHead = findIsSlow;
        return;
      }
      const [start, end] = [base + at[0], base + at[1]];
      if (end <= maxLength) showHead = true;
      else {
        placed = true;
        shownFrom = Math.max(base, start - Math.max(0, Math.floor((maxLength - (end - start)) / 2)));
        shown = pending.slice(shownFrom - base, shownFrom - base + maxLength);
      }
    };
    return {
      feed(piece) {
        if (piece === '') return;
        length += piece.length;
        lastCode = piece.charCodeAt(piece.length - 1);
        if (head.length <= maxLength) {
          head += piece.slice(0, maxLength + 1 - head.length);
          if (head.length > maxLength && testSlice(head, 2)) showHead = true;
        }
        if (placed && shown.length < maxLength) shown += piece.slice(0, maxLength - shown.length);
        if (done()) return;
        pending += piece;
        while (pending.length >= job.windowChars + overlap) {
          searchWindow(pending.slice(0, job.windowChars + overlap), (base > 0 ? 1 : 0) | 2);
          if (done()) {
            pending = '';
            return;
          }
          pending = pending.slice(job.windowChars);
          base += job.windowChars;
        }
      },
      end(trailingCr) {
        if (trailingCr && lastCode === 13) {
          length--;
          head = head.slice(0, length);
          pending = pending.slice(0, -1);
        }
        if (!done()) searchWindow(pending, base > 0 ? 1 : 0);
        pending = '';
        if (!placed) return { matched: showHead, shown: cut(head), head };
        const to = Math.min(length, shownFrom + maxLength);
        const after = to < length ? `…[cut ${length - to} characters]…` : '';
        return { matched: true, shown: `…[cut ${shownFrom} characters]…${shown.slice(0, to - shownFrom)}${after}`, head };
      },
    };
  };
  /** A matching line as shown: whole, or cut (see searchFiles). */
  const show = (line: string): string => {
    if (line.length <= maxLength) return line;
    const scan = scanLine();
    scan.feed(line);
    const { matched, shown } = scan.end(false);
    return matched ? shown : cut(line);
  };

  const BLOCK_LINES = 64;
  const buffer = Buffer.allocUnsafe(job.chunkBytes);
  const literalBytes = literal === undefined ? undefined : Buffer.from(literal, 'utf8');
  let total = 0;
  const lastLines = (text: string): string[] => {
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    return lines.slice(-job.context);
  };

  for (let index = 0; index < job.files.length && total < job.maxMatches; index++) {
    if (Atomics.load(stop, 0) === 1) break;
    let fd: number;
    try {
      fd = openSync(job.files[index] as string, 'r');
    } catch {
      continue;
    }
    const lines: GrepLine[] = [];
    let matches = 0;
    let firstLine = 1;
    let pendingAfter = 0;
    let lastEmitted = 0;
    let previousTail: string[] = [];

    /** Adds line `number` as a match, after the context lines before it not shown yet (`before` gives their text). */
    const addMatch = (number: number, text: string, before: (line: number) => string | undefined) => {
      for (let line = Math.max(number - job.context, lastEmitted + 1); line < number; line++) {
        const beforeText = before(line);
        if (beforeText !== undefined) lines.push({ line, text: cut(beforeText.replace(/\r$/, '')), match: false });
      }
      lines.push({ line: number, text, match: true });
      lastEmitted = number;
      matches++;
      pendingAfter = job.context;
    };
    const addContext = (number: number, text: string) => {
      lines.push({ line: number, text: cut(text), match: false });
      lastEmitted = number;
      pendingAfter--;
    };

    /** Searches `data`, whole lines from line `firstLine` on (the last one may lack its LF). */
    const searchLines = (data: Buffer): void => {
      const testable = job.prefilter && !(job.endAnchor && data.includes(13));
      const skip = (text?: string) => {
        for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) firstLine++;
        if (data.length > 0 && data[data.length - 1] !== 10) firstLine++;
        if (job.context > 0) previousTail = lastLines(text?.slice(-4096) ?? data.toString('utf8', Math.max(0, data.length - 4096)));
      };
      // A literal is looked for in the bytes; RE2 reads decoded text faster than bytes.
      if (pendingAfter === 0 && testable && literalBytes && data.indexOf(literalBytes) === -1) {
        skip();
        return;
      }
      const text = data.toString('utf8');
      if (pendingAfter === 0 && testable && !literalBytes && !testLines(text)) {
        skip(text);
        return;
      }
      const chunkLines = text.split('\n');
      if (text.endsWith('\n')) chunkLines.pop();
      const before = (line: number) => {
        const relative = line - firstLine;
        return relative >= 0 ? chunkLines[relative] : previousTail[previousTail.length + relative];
      };
      /** Lines before this one are in a block known to match somewhere. */
      let testedUntil = 0;
      for (let offset = 0, start = 0; offset < chunkLines.length; offset++) {
        const raw = chunkLines[offset] as string;
        if (testable && pendingAfter === 0 && offset >= testedUntil) {
          const end = Math.min(chunkLines.length, offset + BLOCK_LINES);
          let blockEnd = start;
          for (let line = offset; line < end; line++) blockEnd += (chunkLines[line] as string).length + 1;
          if (!testLines(text.slice(start, blockEnd - 1))) {
            offset = end - 1;
            start = blockEnd;
            continue;
          }
          testedUntil = end;
        }
        start += raw.length + 1;
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        const number = firstLine + offset;
        if (matches < job.maxMatches && testLine(line)) addMatch(number, show(line), before);
        else if (pendingAfter > 0) addContext(number, line);
        else if (matches >= job.maxMatches) break;
      }
      firstLine += chunkLines.length;
      if (job.context > 0) previousTail = chunkLines.slice(-job.context);
    };
    /** Adds line `firstLine`, a long one searched in windows. */
    const addLongLine = ({ matched, shown, head }: ReturnType<LineScan['end']>) => {
      const number = firstLine;
      if (matched) addMatch(number, shown, (line) => previousTail[previousTail.length + line - number]);
      else if (pendingAfter > 0) addContext(number, head);
      firstLine++;
      if (job.context > 0) previousTail = [...previousTail, head].slice(-job.context);
    };

    try {
      let carry: Buffer | undefined;
      /** The line longer than maxLineBytes being read, and the decoder of its bytes. */
      let long: { scan: LineScan; decoder: InstanceType<typeof StringDecoder> } | undefined;
      /** Feeds bytes of the long line a window at a time, so that no string of it grows larger. */
      const feedLong = (bytes: Buffer) => {
        if (!long) return;
        for (let from = 0; from < bytes.length; from += job.windowChars)
          long.scan.feed(long.decoder.write(bytes.subarray(from, from + job.windowChars)));
      };
      for (let position = 0; ; ) {
        const read = readSync(fd, buffer, 0, buffer.length, position);
        if (position === 0 && buffer.subarray(0, Math.min(read, 8000)).includes(0)) break;
        position += read;
        let data = buffer.subarray(0, read);
        if (long) {
          const newline = data.indexOf(10);
          feedLong(newline === -1 ? data : data.subarray(0, newline));
          if (newline === -1 && read > 0) continue;
          long.scan.feed(long.decoder.end());
          addLongLine(long.scan.end(true));
          long = undefined;
          if (matches >= job.maxMatches) break;
          data = data.subarray(newline + 1);
        }
        if (carry) data = Buffer.concat([carry, data]);
        carry = undefined;
        if (read === 0) {
          if (data.length > 0) searchLines(data);
          break;
        }
        const end = data.lastIndexOf(10) + 1;
        if (end > 0) {
          if (end < data.length) carry = Buffer.from(data.subarray(end));
          searchLines(data.subarray(0, end));
        } else if (data.length < job.maxLineBytes) carry = Buffer.from(data);
        else {
          long = { scan: scanLine(), decoder: new StringDecoder('utf8') };
          feedLong(data);
        }
        if (matches >= job.maxMatches) break;
      }
    } finally {
      closeSync(fd);
    }
    if (matches > 0) {
      total += matches;
      post({ type: 'progress', value: { index, lines } satisfies FileReport });
    }
  }
  post({ type: 'done', value: null });
}
