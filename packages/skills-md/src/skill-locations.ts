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
}

/** The project roots, relative to the working directory, in order. */
export const PROJECT_SKILL_ROOTS: readonly string[] = ['.nexus/skills', '.agents/skills', '.claude/skills'];

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
  /** The user's home directory (its `.agents/skills` is a user root). */
  readonly homeDirectory: string;
  /** Further user roots, after the others. */
  readonly roots?: readonly string[];
}

/**
 * The roots in order, project before user: `<cwd>/.nexus/skills`, `<cwd>/.agents/skills`,
 * `<cwd>/.claude/skills`, `<config>/skills`, `~/.agents/skills`, then the configured ones
 * (user). A folder that is both (the working directory is the home directory) counts as the user's.
 */
export function skillRoots(options: SkillRootOptions): SkillRoot[] {
  const { cwd, configDirectory, homeDirectory, roots = [] } = options;
  const user = [join(configDirectory, 'skills'), join(homeDirectory, '.agents', 'skills'), ...roots.map((root) => resolve(cwd, root))];
  const project = PROJECT_SKILL_ROOTS.map((root) => join(cwd, root)).filter((path) => !user.includes(path));
  const ordered: SkillRoot[] = [
    ...project.map((path) => ({ path, scope: 'project' as const })),
    ...user.map((path) => ({ path, scope: 'user' as const })),
  ];
  return ordered.filter((root, index) => ordered.findIndex((other) => other.path === root.path) === index);
}
