import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { nexusStateDir } from '@nexus/core';

/** Where a package comes from: with the project (untrusted until trusted) or installed by the user (trusted). */
export type SkillScope = 'project' | 'user';

/** A folder skill packages are found in. */
export interface SkillRoot {
  /** Absolute path. */
  readonly path: string;
  readonly scope: SkillScope;
  /**
   * Which of the default folders it is, as `disabledFolders` and `nexus skills list` name it
   * (`.claude/skills`, `~/.copilot/skills`, …); absent for a configured or scanned root.
   */
  readonly source?: SkillFolderName;
}

/**
 * The default folders, in order — project before user, a folder shadowing the ones after it:
 * Nexus's own, then those of the agentskills.io standard (`.agents`), Claude Code, GitHub Copilot.
 * `$XDG_CONFIG_HOME/nexus/skills` is the `configDirectory`'s `skills/`; the `~` ones are under the home directory.
 */
export const SKILL_FOLDER_NAMES = [
  '.nexus/skills',
  '.agents/skills',
  '.claude/skills',
  '.github/skills',
  '$XDG_CONFIG_HOME/nexus/skills',
  '~/.agents/skills',
  '~/.config/agents/skills',
  '~/.claude/skills',
  '~/.copilot/skills',
] as const;

/** The name of a default skill folder. */
export type SkillFolderName = (typeof SKILL_FOLDER_NAMES)[number];

/** Whether `value` names a default skill folder. */
export function isSkillFolderName(value: unknown): value is SkillFolderName {
  return typeof value === 'string' && (SKILL_FOLDER_NAMES as readonly string[]).includes(value);
}

/** `$XDG_CONFIG_HOME/nexus` (default `~/.config/nexus`): user skills live in its `skills/`, result template overrides in its `templates/`. */
export function defaultConfigDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'nexus');
}

/** `$XDG_STATE_HOME/nexus` (default `~/.local/state/nexus`, core's `nexusStateDir`): trust and usage records. */
export function defaultStateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return nexusStateDir(env);
}

/** What {@link skillRoots} needs. */
export interface SkillRootOptions {
  /** The working directory, whose project roots come first. */
  readonly cwd: string;
  /** The user's Nexus config directory (its `skills/` is a user root). */
  readonly configDirectory: string;
  /** The user's home directory (its `.agents/skills`, `.config/agents/skills`, `.claude/skills`, `.copilot/skills` are user roots). */
  readonly homeDirectory: string;
  /** Further user roots, after the others. */
  readonly roots?: readonly string[];
  /** Default folders left out. */
  readonly disabledFolders?: readonly SkillFolderName[];
}

function folderPath(name: SkillFolderName, options: SkillRootOptions): string {
  if (name === '$XDG_CONFIG_HOME/nexus/skills') return join(options.configDirectory, 'skills');
  if (name.startsWith('~/')) return join(options.homeDirectory, name.slice(2));
  return join(options.cwd, name);
}

/**
 * The roots in order, project before user: the default folders ({@link SKILL_FOLDER_NAMES}) not
 * disabled, then the configured ones (user). A folder that is both (the working directory is the
 * home directory) counts as the user's.
 */
export function skillRoots(options: SkillRootOptions): SkillRoot[] {
  const { cwd, roots = [], disabledFolders = [] } = options;
  const defaults = SKILL_FOLDER_NAMES.filter((name) => !disabledFolders.includes(name)).map((source) => ({
    path: folderPath(source, options),
    scope: source.startsWith('.') ? ('project' as const) : ('user' as const),
    source,
  }));
  const user = [
    ...defaults.filter((root) => root.scope === 'user'),
    ...roots.map((root) => ({ path: resolve(cwd, root), scope: 'user' as const })),
  ];
  const userPaths = new Set(user.map((root) => root.path));
  const project = defaults.filter((root) => root.scope === 'project' && !userPaths.has(root.path));
  const ordered: SkillRoot[] = [...project, ...user];
  return ordered.filter((root, index) => ordered.findIndex((other) => other.path === root.path) === index);
}
