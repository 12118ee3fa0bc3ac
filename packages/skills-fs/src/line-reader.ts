import type { FileHandle } from 'node:fs/promises';

const CHUNK_BYTES = 64 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

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

/** Decodes the bytes of one line, without its line break, cutting it at `maxLength` characters. */
export function decodeLine(bytes: Buffer, maxLength: number, notes: DecodeNotes): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
  let text: string;
  try {
    text = strictUtf8.decode(bytes.subarray(0, end));
  } catch {
    notes.invalidUtf8 = true;
    text = lenientUtf8.decode(bytes.subarray(0, end));
  }
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
 * Reads lines `offset … offset + limit - 1` of an open file in 64 KiB chunks, stopping as soon as
 * they are read: the head of a huge file costs one chunk. Lines before `offset` are only counted,
 * and no line holds more than a few times `maxLineLength` bytes in memory.
 */
export async function readLineSlice(handle: FileHandle, options: LineSliceOptions): Promise<LineSlice> {
  const { offset, limit, maxBytes, maxLineLength } = options;
  const keepBytes = maxLineLength * 4 + 4;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const slice: LineSlice = { lines: [], nextLine: undefined, hitByteLimit: false, totalLines: undefined, invalidUtf8: false, longLines: 0 };
  let parts: Buffer[] = [];
  let partBytes = 0;
  let lineNumber = 1;
  let outputBytes = 0;
  let position = 0;
  let partial = false;

  const keep = (bytes: Buffer) => {
    if (lineNumber < offset || partBytes >= keepBytes) return;
    const piece = bytes.subarray(0, keepBytes - partBytes);
    parts.push(Buffer.from(piece));
    partBytes += piece.length;
  };
  /** Emits the current line; returns false when the slice is full. */
  const emit = (): boolean => {
    if (lineNumber >= offset) {
      const text = decodeLine(Buffer.concat(parts, partBytes), maxLineLength, slice);
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
    parts = [];
    partBytes = 0;
    partial = false;
    lineNumber++;
    if (limit !== undefined && slice.lines.length >= limit) return false;
    return true;
  };

  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) {
      if (partial) emit();
      break;
    }
    const data = chunk.subarray(0, bytesRead);
    let start = 0;
    for (let newline = data.indexOf(10, start); newline !== -1; newline = data.indexOf(10, start)) {
      keep(data.subarray(start, newline));
      start = newline + 1;
      if (!emit()) {
        const size = (await handle.stat()).size;
        if (slice.nextLine === undefined && position + start < size) slice.nextLine = lineNumber;
        return slice;
      }
    }
    keep(data.subarray(start));
    if (start < bytesRead) partial = true;
    position += bytesRead;
  }
  slice.totalLines = lineNumber - 1;
  return slice;
}

/**
 * Reads the last `count` lines of an open file of `size` bytes, backwards in 64 KiB chunks, so
 * the cost depends on the lines asked for, not on the size of the file. Reads at most `maxBytes`.
 */
export async function readLastLines(handle: FileHandle, size: number, count: number, maxBytes: number, maxLineLength: number): Promise<{ lines: string[] } & DecodeNotes> {
  const notes: DecodeNotes = { invalidUtf8: false, longLines: 0 };
  const chunks: Buffer[] = [];
  let position = size;
  let newlines = 0;
  let trailingNewline: boolean | undefined;
  while (position > 0 && newlines <= count && size - position < maxBytes) {
    const length = Math.min(CHUNK_BYTES, position);
    position -= length;
    const data = Buffer.allocUnsafe(length);
    await handle.read(data, 0, length, position);
    trailingNewline ??= data[length - 1] === 10;
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
