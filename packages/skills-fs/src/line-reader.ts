import { isUtf8 } from 'node:buffer';
import { CHUNK_BYTES, type ChunkReader } from './chunk-reader.js';

/** What was decoded along the way. */
export interface DecodeNotes {
  /** Some bytes were not valid UTF-8 and show as U+FFFD. */
  invalidUtf8: boolean;
  /** Lines cut at `maxLineLength`. */
  longLines: number;
}

/** The bracketed notes about decoding added under a file's text. */
export function decodeRemarks(notes: DecodeNotes, maxLineLength: number): string[] {
  const remarks: string[] = [];
  if (notes.invalidUtf8) remarks.push('[Some bytes are not valid UTF-8 and are shown as �.]');
  if (notes.longLines > 0) remarks.push(`[${notes.longLines} line(s) longer than ${maxLineLength} characters were cut.]`);
  return remarks;
}

/** The decoded text of one line as shown: without its CR or a leading byte-order mark, cut at `maxLength` characters. */
function displayText(text: string, maxLength: number, notes: DecodeNotes): string {
  if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length <= maxLength) return text;
  notes.longLines++;
  return `${text.slice(0, maxLength)}… [line cut at ${maxLength} characters]`;
}

/** Whether decoded `text` stands for bytes `start … end` of `bytes` that are not all UTF-8 (a U+FFFD may also be in the file). */
function hasInvalidUtf8(text: string, bytes: Buffer, start: number, end: number): boolean {
  return text.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end));
}

/** Decodes the bytes `start … end` of `bytes` (one line, without its LF) as shown; invalid UTF-8 shows as U+FFFD. */
export function decodeLine(bytes: Buffer, maxLength: number, notes: DecodeNotes, start = 0, end = bytes.length): string {
  const text = bytes.toString('utf8', start, end);
  if (hasInvalidUtf8(text, bytes, start, end)) notes.invalidUtf8 = true;
  return displayText(text, maxLength, notes);
}

/** Options of {@link readLineSlice}. */
export interface LineSliceOptions {
  /** First line to return, 1-based. */
  offset: number;
  /** Most lines to return (`undefined`: as many as fit in `maxBytes`). */
  limit: number | undefined;
  /** Most bytes of text to return. */
  maxBytes: number;
  /** Longest line returned, in characters. */
  maxLineLength: number;
}

/** Line numbers whose prefix is kept once made: each file read shows the same ones again. */
const KEPT_PREFIXES = 10_000;
const prefixes: string[] = [];

/** What `read_file` puts before line `number`: the number right-aligned in 6 columns, a tab. */
function linePrefix(number: number): string {
  const kept = prefixes[number];
  if (kept !== undefined) return kept;
  const prefix = `${String(number).padStart(6)}\t`;
  if (number < KEPT_PREFIXES) prefixes[number] = prefix;
  return prefix;
}

/** Lines read by {@link readLineSlice}. */
export interface LineSlice extends DecodeNotes {
  /** The lines as `read_file` shows them: each after its {@link linePrefix}, joined by newlines. */
  text: string;
  /** How many lines {@link text} holds. */
  count: number;
  /** The 1-based number of the first line in {@link text}. */
  firstLine: number;
  /** The line after the last one returned, when the file goes on. */
  nextLine: number | undefined;
  /** Stopped because `maxBytes` was reached (rather than `limit` or the end of the file). */
  hitByteLimit: boolean;
  /** Lines in the file, when the read reached its end. */
  totalLines: number | undefined;
}

/**
 * Reads lines `offset … offset + limit - 1` of a file chunk by chunk, stopping as soon as they
 * are read: the head of a huge file costs one chunk. Lines before `offset` are only counted, the
 * complete lines of a chunk are decoded at once, and no line holds more than a few times
 * `maxLineLength` bytes in memory. The lines come numbered as `read_file` shows them, built in
 * the same pass that measures them against `maxBytes`.
 */
export async function readLineSlice(file: ChunkReader, options: LineSliceOptions): Promise<LineSlice> {
  const { offset, limit, maxBytes, maxLineLength } = options;
  const keepBytes = maxLineLength * 4 + 4;
  const slice: LineSlice = {
    text: '',
    count: 0,
    firstLine: offset,
    nextLine: undefined,
    hitByteLimit: false,
    totalLines: undefined,
    invalidUtf8: false,
    longLines: 0,
  };
  // The start of a line that began in an earlier chunk (only when wanted, and at most `keepBytes`).
  let carried: Buffer[] = [];
  let carriedBytes = 0;
  let partial = false;
  let lineNumber = 1;
  let outputBytes = 0;

  const carry = (data: Buffer, start: number) => {
    partial = true;
    if (lineNumber < offset || carriedBytes >= keepBytes) return;
    const piece = data.subarray(start, Math.min(data.length, start + keepBytes - carriedBytes));
    carried.push(Buffer.from(piece));
    carriedBytes += piece.length;
  };
  /** Adds line `lineNumber` as shown (`bytes`: its UTF-8 size); false when the slice is full. */
  const add = (text: string, bytes: number): boolean => {
    const prefix = linePrefix(lineNumber);
    // The prefix is ASCII; one more byte for the newline.
    const size = prefix.length + bytes + 1;
    if (slice.count > 0 && outputBytes + size > maxBytes) {
      slice.hitByteLimit = true;
      slice.nextLine = lineNumber;
      return false;
    }
    outputBytes += size;
    slice.text = slice.count === 0 ? prefix + text : `${slice.text}\n${prefix}${text}`;
    slice.count++;
    lineNumber++;
    return limit === undefined || slice.count < limit;
  };
  /** Ends the line carried over from earlier chunks with `data[0 … end)`; false when the slice is full. */
  const addCarried = (data: Buffer, end: number): boolean => {
    if (lineNumber < offset) {
      partial = false;
      lineNumber++;
      return true;
    }
    carry(data.subarray(0, end), 0);
    const text = decodeLine(Buffer.concat(carried, carriedBytes), maxLineLength, slice);
    carried = [];
    carriedBytes = 0;
    partial = false;
    return add(text, Buffer.byteLength(text));
  };
  /** The slice once it is full; `goesOn`: the file has more after the last line read. */
  const full = (goesOn: boolean): LineSlice => {
    if (slice.nextLine === undefined && goesOn) slice.nextLine = lineNumber;
    return slice;
  };

  for (let position = 0; ; ) {
    const data = await file.read(position);
    position += data.length;
    if (data.length === 0) {
      if (partial && !addCarried(data, 0)) return full(false);
      break;
    }
    const goesOnFrom = (next: number) => next < data.length || position < file.size;
    let start = 0;
    if (partial) {
      const newline = data.indexOf(10);
      if (newline === -1) {
        carry(data, 0);
        continue;
      }
      start = newline + 1;
      if (!addCarried(data, newline)) return full(goesOnFrom(start));
    }
    for (let newline = data.indexOf(10, start); lineNumber < offset && newline !== -1; newline = data.indexOf(10, start)) {
      start = newline + 1;
      lineNumber++;
    }
    // The end of the file ends its last line too: a last line without a newline is not carried.
    const last = position === file.size && data[data.length - 1] !== 10 ? data.length : data.lastIndexOf(10);
    if (lineNumber >= offset && last >= start) {
      const text = data.toString('utf8', start, last);
      if (hasInvalidUtf8(text, data, start, last)) {
        // Rare: decode line by line, so that only the lines shown count as invalid.
        for (let from = start; from <= last; ) {
          const found = data.indexOf(10, from);
          const newline = found === -1 ? data.length : found;
          const line = decodeLine(data, maxLineLength, slice, from, Math.min(newline, from + keepBytes));
          from = newline + 1;
          if (!add(line, Buffer.byteLength(line))) return full(goesOnFrom(from));
        }
      } else {
        // Valid UTF-8 has as many bytes as UTF-16 code units only when it is all ASCII.
        const ascii = text.length === last - start;
        for (let from = 0, newline = 0; newline !== -1; from = newline + 1) {
          newline = text.indexOf('\n', from);
          const line = displayText(text.slice(from, newline === -1 ? text.length : newline), maxLineLength, slice);
          const bytes = ascii && line.length <= maxLineLength ? line.length : Buffer.byteLength(line);
          if (!add(line, bytes)) return full(newline !== -1 || goesOnFrom(last + 1));
        }
      }
      start = last + 1;
    }
    if (start < data.length) carry(data, start);
  }
  slice.totalLines = lineNumber - 1;
  return slice;
}

/**
 * Reads the last `count` lines of a file, backwards chunk by chunk, so the cost depends on the
 * lines asked for, not on the size of the file. Reads at most `maxBytes`.
 */
export async function readLastLines(
  file: ChunkReader,
  count: number,
  maxBytes: number,
  maxLineLength: number,
): Promise<{ lines: string[] } & DecodeNotes> {
  const notes: DecodeNotes = { invalidUtf8: false, longLines: 0 };
  const { size } = file;
  const chunks: Buffer[] = [];
  let position = size;
  let newlines = 0;
  let trailingNewline: boolean | undefined;
  while (position > 0 && newlines <= count && size - position < maxBytes) {
    const length = Math.min(CHUNK_BYTES, position);
    position -= length;
    const data = await file.read(position, length);
    trailingNewline ??= data[data.length - 1] === 10;
    for (let index = data.indexOf(10); index !== -1; index = data.indexOf(10, index + 1)) newlines++;
    chunks.unshift(data);
  }
  let text = Buffer.concat(chunks);
  if (trailingNewline) text = text.subarray(0, text.length - 1);
  const pieces: Buffer[] = [];
  let end = text.length;
  while (pieces.length < count) {
    const newline = text.lastIndexOf(10, end - 1);
    pieces.unshift(text.subarray(newline + 1, end));
    if (newline === -1) break;
    end = newline;
  }
  if (size === 0) return { lines: [], ...notes };
  const lines = pieces.map((piece) => decodeLine(piece, maxLineLength, notes));
  return { lines, ...notes };
}
