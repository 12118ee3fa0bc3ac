import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { fileStamp } from './file-stamp.js';
import { FILE_START, type FilePosition } from './skill-diagnostic.js';
import { SkillFileError } from './skill-file-error.js';

/** Largest `SKILL.md` read; a larger one is refused without reading it. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;
/** How much YAML aliases may expand before the frontmatter counts as an alias bomb (the `yaml` package's measure). */
export const MAX_YAML_ALIAS_COUNT = 100;

/** A parsed `SKILL.md`: its frontmatter, its body, and where each frontmatter value is in the file. */
export interface SkillFile {
  /** Absolute path of the file. */
  readonly file: string;
  /** The frontmatter as plain data. */
  readonly frontmatter: Record<string, unknown>;
  /** The instructions after the frontmatter. */
  readonly body: string;
  /** The position of the value at `path` in the frontmatter (of its nearest existing parent when it is absent). */
  locate(path: readonly PropertyKey[]): FilePosition;
  /** The text of the scalar at `path` as written (without quotes), or `undefined` where there is none: `1.0` for a value read as the number 1. */
  textAt(path: readonly PropertyKey[]): string | undefined;
}

/** The text of a `SKILL.md` and the {@link fileStamp} of the version read. */
export interface SkillSource {
  readonly text: string;
  readonly stamp: string;
}

/**
 * Reads at most {@link MAX_SKILL_FILE_BYTES} of a regular file, without blocking on a FIFO planted in
 * its place. Synchronous: a listing reads hundreds of these small files, several times faster
 * without the thread pool's round trips.
 */
export function readSkillSource(file: string): SkillSource {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SkillFileError(file, FILE_START, code === 'ENOENT' ? 'SKILL.md is missing' : `cannot be read (${code})`, { cause: error });
  }
  try {
    const info = fstatSync(descriptor);
    if (!info.isFile()) throw new SkillFileError(file, FILE_START, 'SKILL.md is not a regular file');
    if (info.size > MAX_SKILL_FILE_BYTES) {
      throw new SkillFileError(file, FILE_START, `SKILL.md is ${(info.size / 1024 / 1024).toFixed(1)} MiB; at most 1 MiB is read`);
    }
    const buffer = Buffer.allocUnsafe(info.size);
    const bytesRead = readSync(descriptor, buffer, 0, info.size, 0);
    return { text: buffer.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, ''), stamp: fileStamp(info) };
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Reads and parses a `SKILL.md`: its frontmatter (YAML, between a first line `---` and the next
 * `---` or `...` line) and its body. Every problem is a {@link SkillFileError} naming the file,
 * line and column: over {@link MAX_SKILL_FILE_BYTES} (refused unread), no frontmatter or no
 * closing line, YAML that does not parse or repeats a key, an alias bomb, frontmatter that is not
 * a mapping. The YAML parser is loaded on the first call.
 */
export async function readSkillFile(file: string): Promise<SkillFile> {
  const { parseSkillFile } = await import('./parse-skill-file.js');
  return parseSkillFile(file, readSkillSource(file).text);
}
