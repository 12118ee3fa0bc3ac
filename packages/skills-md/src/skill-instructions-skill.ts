import { defineSkill, type ServiceContainer, type SkillSpec, ToolResult } from '@nexus/core';
import { mapAllowedTools } from './allowed-tools.js';
import { readPackageInstructions } from './package-instructions.js';
import type { SkillPackage } from './skill-package.js';

/** What the `skill` tool shows of a package: a loaded one, or one only listed so far. */
export type ListedSkillPackage = Pick<
  SkillPackage,
  'name' | 'folderName' | 'description' | 'folder' | 'skillFile' | 'trust' | 'trusted'
> & {
  /** Its tools. */
  readonly tools: readonly string[];
};

import { resolveSkillPackage } from './skill-resolution.js';
import { SKILL_SEARCH_TOOL_NAME } from './skill-search.js';

/** The instructions tool's name. */
export const SKILL_TOOL_NAME = 'skill';
const MAX_LISTED_FILES = 200;

/** Arguments of the `skill` tool. */
export interface SkillInstructionsArguments {
  /** A skill's name or folder name. */
  name: string;
}

function describeTrust(skillPackage: ListedSkillPackage): string {
  if (skillPackage.trusted) return '';
  const why = skillPackage.trust === 'changed' ? 'changed since it was trusted' : 'not trusted yet';
  return ` [untrusted project skill, ${why}: its commands are off until the user runs \`nexus skills trust ${skillPackage.name}\`]`;
}

/**
 * Narrows the agent to the tools the package's `allowed-tools` names (mapped to Nexus tools), its
 * own tools, and `skill` and `skill_search` (to take another skill) — core's `toolScope`, which the
 * registry's gate and listings apply; a package without `allowed-tools` lifts an earlier narrowing.
 * The tools allowed, or undefined when none is narrowed.
 */
function enterToolScope(
  services: ServiceContainer,
  skillPackage: ListedSkillPackage,
  allowedTools: unknown,
  onScopeChange: (() => void) | undefined,
): string[] | undefined {
  const before = services.get('toolScope');
  let tools: string[] | undefined;
  if (allowedTools === undefined) services.unregister('toolScope');
  else {
    const own = skillPackage.trusted ? skillPackage.tools : [];
    tools = [...new Set([...mapAllowedTools(allowedTools).tools, ...own, SKILL_TOOL_NAME, SKILL_SEARCH_TOOL_NAME])];
    services.register('toolScope', { skill: skillPackage.name, tools });
  }
  const same = before?.skill === skillPackage.name && before.tools.join(' ') === tools?.join(' ');
  if (!same && (before !== undefined || tools !== undefined)) onScopeChange?.();
  return tools;
}

/** Options of {@link skillInstructionsSkill}. */
export interface SkillInstructionsOptions {
  /**
   * Called when a call narrowed the tools differently (`allowed-tools`) or lifted the narrowing: the
   * tools an agent is offered changed, though no skill did — a living family tells its registries.
   */
  readonly onScopeChange?: () => void;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The `skill` tool (§8): `name` is one of the packages (by name or folder name); it answers the
 * package's instructions — the `SKILL.md` body, read afresh — inside `<skill_content name="…">`,
 * with the folder and the list of its other files (not their contents), and makes that folder
 * readable by the agent, read-only, at every level (core's `addReadOnlyPath`) — the files the
 * instructions point to. Level `sandboxed`: it only reads what the user installed or the project
 * brought, and marks untrusted project skills.
 */
export function skillInstructionsSkill(packages: readonly ListedSkillPackage[], options: SkillInstructionsOptions = {}): SkillSpec {
  const words = [...new Set(packages.flatMap((skillPackage) => [skillPackage.name, skillPackage.folderName]))];
  const listing = packages
    .map((skillPackage) => `- ${skillPackage.name}: ${skillPackage.description}${describeTrust(skillPackage)}`)
    .join('\n');
  return defineSkill<SkillInstructionsArguments>({
    name: SKILL_TOOL_NAME,
    description:
      'Load the instructions of an installed skill package before doing a task it covers: they say how to do it and which of its commands (tools named after the skill) to use.\n' +
      `Available skills:\n${listing}`,
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', enum: words, description: 'The skill to load, by name.' } },
      required: ['name'],
      additionalProperties: false,
    },
    readOnly: true,
    destructive: false,
    create: (services) => async (args) => {
      const skillPackage = resolveSkillPackage(packages, args.name);
      const { body, frontmatter, files } = await readPackageInstructions(skillPackage);
      // Its references, assets and scripts are what the instructions point to: readable from now on, read-only.
      services.addReadOnlyPath(skillPackage.folder);
      const scope = enterToolScope(services, skillPackage, frontmatter['allowed-tools'], options.onScopeChange);
      const shown = files.slice(0, MAX_LISTED_FILES).map((file) => `- ${file}`);
      if (files.length > MAX_LISTED_FILES) shown.push(`- … and ${files.length - MAX_LISTED_FILES} more`);
      const trust = describeTrust(skillPackage).trim();
      const text = [
        `<skill_content name="${escapeAttribute(skillPackage.name)}">`,
        body,
        '</skill_content>',
        '',
        `Folder: ${skillPackage.folder}`,
        ...(trust ? [trust] : []),
        ...(scope ? [`While you follow this skill, only these tools are available: ${scope.join(', ')}.`] : []),
        ...(shown.length ? ['Other files (read them when the instructions point to them):', ...shown] : []),
      ].join('\n');
      return ToolResult.ok(text, {
        skill: skillPackage.name,
        folder: skillPackage.folder,
        trusted: skillPackage.trusted,
        files: [...files],
        commands: skillPackage.trusted ? [...skillPackage.tools] : [],
      });
    },
  });
}
