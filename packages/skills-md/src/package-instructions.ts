import { SKILL_FILE_NAME } from './discover-skill-packages.js';
import { listPackageFiles } from './package-hash.js';
import { readSkillFile } from './read-skill-file.js';

/** What a package's instructions are made of, read afresh. */
export interface PackageInstructions {
  /** The `SKILL.md` body, trimmed. */
  readonly body: string;
  /** The `SKILL.md` frontmatter as plain data. */
  readonly frontmatter: Record<string, unknown>;
  /** Its other files, relative to its folder, sorted (see `listPackageFiles`). */
  readonly files: readonly string[];
}

/**
 * Reads a package's instructions and lists its other files, and does nothing else: no read grant,
 * no tool narrowing, no usage record — what the `skill` tool adds on top, and what a reader that
 * only shows them (MCP prompts and resources) leaves out.
 */
export async function readPackageInstructions(skillPackage: {
  readonly skillFile: string;
  readonly folder: string;
}): Promise<PackageInstructions> {
  const [{ body, frontmatter }, files] = await Promise.all([readSkillFile(skillPackage.skillFile), listPackageFiles(skillPackage.folder)]);
  return { body: body.trim(), frontmatter, files: files.filter((file) => file !== SKILL_FILE_NAME) };
}
