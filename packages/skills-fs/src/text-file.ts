import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteVerified, convertLineEndings, detectLineEnding, InvalidParametersError, type LineEnding } from '@nexus/core';
import type { FileSandbox } from './file-sandbox.js';
import { makeDirectories } from './make-directories.js';

/** Bytes inspected for a NUL byte to tell binary files from text. */
export const BINARY_SNIFF_BYTES = 8000;

/** Whether the start of a file looks binary (holds a NUL byte), as git and ripgrep judge it. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** A text file loaded for editing. */
export interface TextFile {
  /** Real path. */
  path: string;
  /** How the path is shown to the LLM. */
  display: string;
  text: string;
  stats: Stats;
  lineEnding: LineEnding;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Loads an existing text file for an edit skill: approved for writing, opened through the
 * sandbox, at most `maxEditBytes`, not binary, valid UTF-8 (an edit must not mangle bytes it
 * cannot decode), and read by the agent as it is now when a read tracker is registered.
 */
export async function loadTextFile(files: FileSandbox, path: string): Promise<TextFile> {
  return loadApprovedTextFile(files, await files.paths.authorize(path, { access: 'write', mustExist: true }));
}

/** {@link loadTextFile} for a real path the caller already approved for writing. */
export async function loadApprovedTextFile(files: FileSandbox, real: string): Promise<TextFile> {
  const opened = await files.opener.openApproved(real);
  const display = await files.paths.display(opened.path);
  let bytes: Buffer;
  try {
    const { maxEditBytes } = files.options;
    if (opened.stats.size > maxEditBytes) {
      throw new InvalidParametersError(
        `\`path\` ${display} is ${opened.stats.size} bytes, more than the ${maxEditBytes} bytes the edit skills load; use patch or regex_replace on a smaller file, or write_file.`,
        { parameter: 'path' },
      );
    }
    bytes = await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
  if (looksBinary(bytes))
    throw new InvalidParametersError(`\`path\` ${display} is a binary file; the edit skills only change text.`, { parameter: 'path' });
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new InvalidParametersError(`\`path\` ${display} is not valid UTF-8 text; editing it would corrupt the bytes that are not.`, {
      parameter: 'path',
    });
  }
  await files.staleWrites.assertFresh(opened.path, opened.stats);
  return { path: opened.path, display, text, stats: opened.stats, lineEnding: detectLineEnding(text) };
}

/** Options of {@link saveFile}. */
export interface SaveFileOptions {
  /** Create missing parent directories (default `false`). */
  createParents?: boolean;
}

/**
 * Writes `data` to the approved real path atomically through a verified handle of the parent
 * directory (core's `atomicWriteVerified`, which keeps the existing file's mode), and records the
 * new version with the read tracker. Returns the number of bytes written.
 */
export async function saveFile(
  files: FileSandbox,
  real: string,
  data: string | Uint8Array,
  options: SaveFileOptions = {},
): Promise<number> {
  if (options.createParents) await makeDirectories(files, dirname(real));
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const stats = await atomicWriteVerified(real, bytes);
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
 * Text the LLM sent (usually LF) in the file's line-ending style (core's `convertLineEndings`),
 * unless it spelled out carriage returns itself: then it is kept as written.
 */
export function inFileLineEndings(text: string, ending: LineEnding): string {
  return text.includes('\r') ? text : convertLineEndings(text, ending);
}

/** What {@link inspectTarget} found at a write target. */
export interface WriteTarget {
  stats: Stats;
  /** The current text, when the file is small enough, not binary and valid UTF-8. */
  text: string | undefined;
}

/**
 * Looks at the approved write target `real` before it is replaced: `undefined` when it does not
 * exist; otherwise its stats (after the stale-write check) and its text when it is readable text.
 */
export async function inspectTarget(files: FileSandbox, real: string): Promise<WriteTarget | undefined> {
  const stats = await lstat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!stats) return undefined;
  if (stats.isDirectory())
    throw new InvalidParametersError(`\`path\` ${await files.paths.display(real)} is a directory.`, { parameter: 'path' });
  await files.staleWrites.assertFresh(real, stats);
  if (!stats.isFile() || stats.size > files.options.maxEditBytes) return { stats, text: undefined };
  const opened = await files.opener.openApproved(real);
  try {
    const bytes = await opened.handle.readFile();
    if (looksBinary(bytes)) return { stats, text: undefined };
    return { stats, text: strictUtf8.decode(bytes) };
  } catch {
    return { stats, text: undefined };
  } finally {
    await opened.handle.close();
  }
}
