import { isUtf8 } from 'node:buffer';
import { CHUNK_BYTES, type ChunkReader } from './chunk-reader.js';

/** One line of a file, decoded for display. */
export interface NumberedLine {
  /** 1-based line number (0 when unknown, as in `tail`). */
  number: number;
  text: string;
}

/** What was decoded along the way. */
export interface DecodeNotes {
  /** Some bytes were not valid UTF-8 and show as U+FFFD. */
  invalidUtf8: boolean;
  /** Lines cut at `maxLineLength`. */
  longLines: number;
}

/**
 * Decodes the bytes `start … end` of `bytes` (one line, without its line break), cutting the
 * text at `maxLength` characters. Invalid UTF-8 shows as U+FFFD; a leading byte-order mark is
 * dropped.
 */
export function decodeLine(bytes: Buffer, maxLength: number, notes: DecodeNotes, start = 0, end = bytes.length): string {
  if (end > start && bytes[end - 1] === 13) end--;
  let text = bytes.toString('utf8', start, end);
  // A U+FFFD in the text is either in the file or stands for bytes that are not UTF-8.
  if (text.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end))) notes.invalidUtf8 = true;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length <= maxLength) return text;
  notes.longLines++;
  return `${text.slice(0, maxLength)}… [line cut at ${maxLength} characters]`;
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

/** Lines read by {@link readLineSlice}. */
export interface LineSlice extends DecodeNotes {
  lines: NumberedLine[];
  /** The line after the last one returned, when the file goes on. */
  nextLine: number | undefined;
  /** Stopped because `maxBytes` was reached (rather than `limit` or the end of the file). */
  hitByteLimit: boolean;
  /** Lines in the file, when the read reached its end. */
  totalLines: number | undefined;
}

/**
 * Reads lines `offset … offset + limit - 1` of a file chunk by chunk, stopping as soon as they
 * are read: the head of a huge file costs one chunk. Lines before `offset` are only counted,
 * and no line holds more than a few times `maxLineLength` bytes in memory.
 */
export async function readLineSlice(file: ChunkReader, options: LineSliceOptions): Promise<LineSlice> {
  const { offset, limit, maxBytes, maxLineLength } = options;
  const keepBytes = maxLineLength * 4 + 4;
  const slice: LineSlice = { lines: [], nextLine: undefined, hitByteLimit: false, totalLines: undefined, invalidUtf8: false, longLines: 0 };
  // The start of a line that began in an earlier chunk (only when wanted, and at most `keepBytes`).
  let carried: Buffer[] = [];
  let carriedBytes = 0;
  let partial = false;
  let lineNumber = 1;
  let outputBytes = 0;
  let position = 0;

  const carry = (data: Buffer, start: number, end: number) => {
    partial = true;
    if (lineNumber < offset || carriedBytes >= keepBytes) return;
    const piece = data.subarray(start, Math.min(end, start + keepBytes - carriedBytes));
    carried.push(Buffer.from(piece));
    carriedBytes += piece.length;
  };
  /** Emits the line that ends with `data[start … end)` (after what was carried); returns false when the slice is full. */
  const emit = (data: Buffer, start: number, end: number): boolean => {
    if (lineNumber >= offset) {
      let text: string;
      if (partial) {
        carry(data, start, end);
        text = decodeLine(Buffer.concat(carried, carriedBytes), maxLineLength, slice);
      } else {
        text = decodeLine(data, maxLineLength, slice, start, Math.min(end, start + keepBytes));
      }
      // As read_file prints it: the number padded to 6 columns, a tab, the text, a newline.
      const size = Math.max(6, String(lineNumber).length) + Buffer.byteLength(text) + 2;
      if (slice.lines.length > 0 && outputBytes + size > maxBytes) {
        slice.hitByteLimit = true;
        slice.nextLine = lineNumber;
        return false;
      }
      outputBytes += size;
      slice.lines.push({ number: lineNumber, text });
    }
    carried = [];
    carriedBytes = 0;
    partial = false;
    lineNumber++;
    if (limit !== undefined && slice.lines.length >= limit) return false;
    return true;
  };

  for (;;) {
    const data = await file.read(position);
    if (data.length === 0) {
      if (partial) emit(data, 0, 0);
      break;
    }
    let start = 0;
    for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10, start)) {
      const full = !emit(data, start, newline);
      start = newline + 1;
      if (full) {
        const goesOn = start < data.length || position + data.length < file.size;
        if (slice.nextLine === undefined && goesOn) slice.nextLine = lineNumber;
        return slice;
      }
    }
    if (start < data.length) carry(data, start, data.length);
    position += data.length;
  }
  slice.totalLines = lineNumber - 1;
  return slice;
}

/**
 * Reads the last `count` lines of a file, backwards chunk by chunk, so the cost depends on the
 * lines asked for, not on the size of the file. Reads at most `maxBytes`.
 */
export async function readLastLines(file: ChunkReader, count: number, maxBytes: number, maxLineLength: number): Promise<{ lines: string[] } & DecodeNotes> {
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
