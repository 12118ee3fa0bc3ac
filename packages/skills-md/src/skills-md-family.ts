import type { SkillFamily, SkillSpec } from '@nexus/core';
import { type CommandRuntime, commandSkill } from './command-skill.js';
import { packageDocuments } from './package-documents.js';
import { diagnosticAt, FILE_START, type SkillDiagnostic } from './skill-diagnostic.js';
import { SKILL_TOOL_NAME, skillInstructionsSkill } from './skill-instructions-skill.js';
import type { SkillPackage } from './skill-package.js';

/** The family's name, as `nexus --families` knows it. */
export const SKILLS_FAMILY_NAME = 'skills';

/**
 * The family of a set of loaded packages: the commands of every trusted package as tools, and the
 * `skill` instructions tool when there is any package, and their documents (instructions and
 * `references/` / `assets/` files, see `packageDocuments`). A tool whose name is reserved (another
 * family's) or already taken by an earlier package is left out with a diagnostic.
 */
export function skillsMdFamily(
  packages: readonly SkillPackage[],
  runtime: CommandRuntime,
  reservedToolNames: ReadonlySet<string>,
): { family: SkillFamily; diagnostics: SkillDiagnostic[] } {
  const skills: SkillSpec[] = [];
  const diagnostics: SkillDiagnostic[] = [];
  const taken = new Set([...reservedToolNames, ...(packages.length > 0 ? [SKILL_TOOL_NAME] : [])]);
  for (const skillPackage of packages) {
    if (!skillPackage.trusted) continue;
    for (const command of skillPackage.commands) {
      if (taken.has(command.tool)) {
        diagnostics.push(
          diagnosticAt(
            'error',
            skillPackage.skillFile,
            FILE_START,
            `the tool name "${command.tool}" is already taken; the command \`${command.name}\` is left out`,
          ),
        );
        continue;
      }
      taken.add(command.tool);
      skills.push(commandSkill({ skillPackage, command, runtime }));
    }
  }
  if (packages.length > 0)
    skills.unshift(
      skillInstructionsSkill(
        packages.map((skillPackage) => ({ ...skillPackage, tools: skillPackage.commands.map((command) => command.tool) })),
      ),
    );
  const documents = packageDocuments({ packages: () => packages, onChange: () => () => {} });
  return { family: { name: SKILLS_FAMILY_NAME, skills, documents }, diagnostics };
}
