import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin } from '@nexus/core';
import { PORTABLE_KEYS } from './manifest-limits.js';
import { SIDE_FILE } from './package-files.js';
import { parseYamlMapping } from './parse-skill-file.js';
import { MAX_SKILL_FILE_BYTES, type SkillFile } from './read-skill-file.js';
import { diagnosticAt, FILE_START, type FilePosition, type SkillDiagnostic } from './skill-diagnostic.js';
import { SkillFileError } from './skill-file-error.js';

/** A package's manifest as read: `SKILL.md`'s frontmatter and its side file's keys, and where each value is. */
export interface ManifestSource {
  /** The keys of both files. */
  readonly frontmatter: Record<string, unknown>;
  /** The file and position of the value at `path` (a key of the side file is in the side file). */
  at(path: readonly PropertyKey[]): readonly [string, FilePosition];
  /** The keys that came from the side file. */
  readonly sideKeys: ReadonlySet<string>;
}

function sideText(file: string, folder: string): string | undefined {
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info) return undefined;
  if (!isWithin(realpathSync(file), folder)) throw new SkillFileError(file, FILE_START, `${SIDE_FILE} leads out of the package folder`);
  if (!info.isFile()) throw new SkillFileError(file, FILE_START, `${SIDE_FILE} is not a regular file`);
  if (info.size > MAX_SKILL_FILE_BYTES) throw new SkillFileError(file, FILE_START, `${SIDE_FILE} is over 1 MiB`);
  return readFileSync(file, 'utf8');
}

/**
 * The manifest of a package: `frontmatter` (SKILL.md's, its metadata already made portable) joined
 * with the keys of `agents/nexus.yaml` when the package has one. A portable key there, or a key in
 * both files, is an error at the side file's line and column; so is a side file that does not parse.
 */
export function readManifestSource(
  skill: SkillFile,
  frontmatter: Record<string, unknown>,
  folder: string,
  entries: readonly string[],
): ManifestSource | { errors: SkillDiagnostic[] } {
  const own: ManifestSource = { frontmatter, at: (path) => [skill.file, skill.locate(path)], sideKeys: new Set() };
  if (!entries.includes('agents')) return own;
  const file = join(folder, SIDE_FILE);
  let side: ReturnType<typeof parseYamlMapping> | undefined;
  try {
    const text = sideText(file, folder);
    if (text === undefined) return own;
    side = parseYamlMapping(file, text, 1, SIDE_FILE);
  } catch (error) {
    if (SkillFileError.isInstance(error)) return { errors: [error.toDiagnostic()] };
    throw error;
  }
  const errors: SkillDiagnostic[] = [];
  for (const key of Object.keys(side.data)) {
    if (PORTABLE_KEYS.has(key))
      errors.push(diagnosticAt('error', file, side.locate([key]), `\`${key}\` is a portable key: it belongs in SKILL.md`));
    else if (Object.hasOwn(frontmatter, key)) {
      const { line, column } = skill.locate([key]);
      errors.push(
        diagnosticAt('error', file, side.locate([key]), `\`${key}\` is in SKILL.md too (${line}:${column}); keep it in one place`),
      );
    }
  }
  if (errors.length > 0) return { errors };
  const sideKeys = new Set(Object.keys(side.data));
  const located = side;
  return {
    frontmatter: { ...frontmatter, ...side.data },
    at: (path) => (sideKeys.has(String(path[0])) ? [file, located.locate(path)] : [skill.file, skill.locate(path)]),
    sideKeys,
  };
}
