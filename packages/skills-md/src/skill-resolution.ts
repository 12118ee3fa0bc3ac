import { NexusError } from '@nexus/core';

/** A word names no package, or more than one. */
export class SkillResolutionError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/skills-md/SkillResolutionError');
  static override readonly code = 'SKILL_NOT_FOUND';
  static override readonly kind = 'not_found';
  /** The folders of the packages that answered to the word (none, or two and more). */
  readonly folders: readonly string[];
  constructor(message: string, folders: readonly string[], options: { code?: string; kind?: 'invalid_input' } = {}) {
    super(message, { ...options, recoverable: true, data: { folders: [...folders] } });
    this.folders = folders;
  }
}

/**
 * Finds the package a word means (seed 003's resolution): its `name` or its folder name. No
 * package → a {@link SkillResolutionError} (`SKILL_NOT_FOUND`); two different packages answering
 * to it → one naming both folders (`SKILL_AMBIGUOUS`). Broken packages count, so a caller can say
 * why one did not load.
 */
export function resolveSkillPackage<P extends { readonly name?: string; readonly folderName: string; readonly folder: string }>(
  packages: readonly P[],
  word: string,
): P {
  const matches = packages.filter((candidate) => candidate.name === word || candidate.folderName === word);
  const folders = [...new Set(matches.map((match) => match.folder))];
  if (folders.length > 1) {
    throw new SkillResolutionError(
      `"${word}" answers to ${folders.length} skill packages: ${folders.join(' and ')}; rename one of them.`,
      folders,
      {
        code: 'SKILL_AMBIGUOUS',
        kind: 'invalid_input',
      },
    );
  }
  const [match] = matches;
  if (!match) {
    const known = packages.map((candidate) => candidate.name ?? candidate.folderName);
    throw new SkillResolutionError(`No skill package is named "${word}"${known.length ? ` (installed: ${known.join(', ')})` : ''}.`, []);
  }
  return match;
}
