import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { atomicWriteVerified, detectLineEnding, InvalidParametersError, type LineEnding, PathSecurityError } from '@nexus/core';
import type { FileSandbox } from './file-sandbox.js';
import { assertUnchanged, type FileSnapshot, snapshotOf } from './file-snapshot.js';
import { type LengthLimit, replaceEvery } from './text-builder.js';

/** Bytes inspected for a NUL byte to tell binary files from text. */
export const BINARY_SNIFF_BYTES = 8000;

/** The byte order mark some editors put at the start of UTF-8 text. */
const BOM = '\uFEFF';
const BOM_BYTES = 3;

/** Whether the start of a file looks binary (holds a NUL byte), as git and ripgrep judge it. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Why the edit skills cannot change a file starting with `head`, or `undefined` when it may be UTF-8 text. */
export function unsupportedEncoding(head: Uint8Array): string | undefined {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
    return 'is UTF-16 text; the edit skills only write UTF-8, so editing it would mix two encodings';
  if (looksBinary(head)) return 'is a binary file; the edit skills only change text';
  return undefined;
}

/** A text file loaded for editing. */
export interface TextFile {
  /** Real path. */
  path: string;
  /** How the path is shown to the LLM. */
  display: string;
  /** The text, without a byte order mark. */
  text: string;
  /** Whether the file starts with a UTF-8 byte order mark (kept when the file is written). */
  bom: boolean;
  stats: Stats;
  lineEnding: LineEnding;
  /** What was read, for the compare-and-swap of the write. */
  snapshot: FileSnapshot;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The limit of the edit skills' results (`maxEditBytes`), in characters of the text being built
 * (a character is at least one byte of UTF-8): past it the edit is refused, naming `parameter`.
 */
export function editLimit(files: FileSandbox, display: string, parameter: string): LengthLimit {
  const max = files.options.maxEditBytes;
  return {
    max,
    exceeded: (length) =>
      new InvalidParametersError(
        `\`${parameter}\` would make ${display} ${length} bytes or more, more than the ${max} bytes the edit skills write (maxEditBytes); nothing was changed.`,
        { parameter },
      ),
  };
}

/** Encodes `text` as UTF-8 (after a BOM when `bom`), refusing a result past {@link editLimit}. */
export function encodeText(text: string, bom: boolean, limit: LengthLimit): Buffer {
  const start = bom ? BOM_BYTES : 0;
  const size = start + Buffer.byteLength(text, 'utf8');
  if (size > limit.max) throw limit.exceeded(size);
  const bytes = Buffer.allocUnsafe(size);
  if (bom) bytes.write(BOM, 0, 'utf8');
  bytes.write(text, start, 'utf8');
  return bytes;
}

/** Options of {@link loadApprovedTextFile}. */
export interface LoadTextOptions {
  /** The argument that named the file, for errors (default `path`). */
  parameter?: string;
}

/**
 * Loads an existing text file at a real path approved for writing, for an edit skill: opened
 * through the sandbox, at most `maxEditBytes`, not binary or UTF-16, valid UTF-8 (an edit must
 * not mangle bytes it cannot decode), and read by the agent as it is now when a read tracker is
 * registered. A UTF-8 BOM is taken off the text and kept aside.
 */
export async function loadApprovedTextFile(files: FileSandbox, real: string, options: LoadTextOptions = {}): Promise<TextFile> {
  const { parameter = 'path' } = options;
  const display = await files.paths.display(real);
  const opened = await files.opener.openApproved(real, display, parameter);
  let bytes: Buffer;
  try {
    const { maxEditBytes } = files.options;
    if (opened.stats.size > maxEditBytes) {
      throw new InvalidParametersError(
        `\`${parameter}\` ${display} is ${opened.stats.size} bytes, more than the ${maxEditBytes} bytes the edit skills load; use patch or regex_replace on a smaller file, or write_file.`,
        { parameter },
      );
    }
    bytes = await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
  const problem = unsupportedEncoding(bytes);
  if (problem) throw new InvalidParametersError(`\`${parameter}\` ${display} ${problem}.`, { parameter });
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new InvalidParametersError(
      `\`${parameter}\` ${display} is not valid UTF-8 text; editing it would corrupt the bytes that are not.`,
      {
        parameter,
      },
    );
  }
  await files.staleWrites.assertFresh(opened.path, opened.stats);
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  return {
    path: opened.path,
    display,
    text,
    bom,
    stats: opened.stats,
    lineEnding: detectLineEnding(text),
    snapshot: snapshotOf(opened.stats, bytes),
  };
}

/** Options of {@link saveFile}. */
export interface SaveFileOptions {
  /**
   * Compare-and-swap: what the file must still be right before it is replaced (see
   * {@link FileSnapshot}); otherwise nothing is written and an `EditConflictError` is thrown.
   */
  expected?: FileSnapshot;
}

/**
 * Writes `bytes` to the approved real path atomically through a verified handle of the parent
 * directory (core's `atomicWriteVerified`: only a regular file is replaced, its mode is kept),
 * compared with `options.expected` right before the rename, and records the new version with the
 * read tracker. The parent directory must exist. Returns the number of bytes written.
 */
export async function saveFile(files: FileSandbox, real: string, bytes: Uint8Array, options: SaveFileOptions = {}): Promise<number> {
  const { expected } = options;
  const display = await files.paths.display(real);
  const checkTarget = expected && ((target: string) => assertUnchanged(target, expected, display));
  const stats = await atomicWriteVerified(real, bytes, checkTarget ? { checkTarget } : {});
  if (stats?.isFile()) files.staleWrites.recordSeen(real, stats);
  return bytes.length;
}

/** Splits text into lines on LF (a CR before the LF stays with the line break, not the line). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * Text the LLM sent (usually LF) in the file's line-ending style, unless it spelled out carriage
 * returns itself: then it is kept as written.
 */
export function inFileLineEndings(text: string, ending: LineEnding): string {
  return ending === '\n' || text.includes('\r') ? text : replaceEvery(text, '\n', ending);
}

/** What {@link inspectTarget} found at a write target. */
export interface WriteTarget {
  stats: Stats;
  /** The current text (without a BOM), when the file is small enough, not binary and valid UTF-8. */
  text: string | undefined;
  /** Whether the file starts with a UTF-8 byte order mark. */
  bom: boolean;
  /** What was read, for the compare-and-swap of the write. */
  snapshot: FileSnapshot;
}

/**
 * Looks at the approved write target `real` before it is replaced: `undefined` when it does not
 * exist; otherwise its stats (after the stale-write check) and its text when it is readable
 * text. Only a regular file may be replaced: a directory, FIFO, socket or device is refused.
 */
export async function inspectTarget(files: FileSandbox, real: string): Promise<WriteTarget | undefined> {
  const stats = await lstat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!stats) return undefined;
  if (stats.isSymbolicLink()) throw new PathSecurityError({ path: real, reason: 'it became a symbolic link after it was checked' });
  if (!stats.isFile())
    throw new InvalidParametersError(
      `\`path\` ${await files.paths.display(real)} is ${stats.isDirectory() ? 'a directory' : 'a device, socket or FIFO'}, not a regular file; write_file only writes regular files.`,
      { parameter: 'path' },
    );
  await files.staleWrites.assertFresh(real, stats);
  if (stats.size > files.options.maxEditBytes) return { stats, text: undefined, bom: false, snapshot: snapshotOf(stats) };
  const opened = await files.opener.openApproved(real);
  try {
    const bytes = await opened.handle.readFile();
    const snapshot = snapshotOf(opened.stats, bytes);
    if (unsupportedEncoding(bytes)) return { stats, text: undefined, bom: false, snapshot };
    try {
      const text = strictUtf8.decode(bytes);
      const bom = text.startsWith(BOM);
      return { stats, text: bom ? text.slice(1) : text, bom, snapshot };
    } catch {
      return { stats, text: undefined, bom: false, snapshot };
    }
  } finally {
    await opened.handle.close();
  }
}
