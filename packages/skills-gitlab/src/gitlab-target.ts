import { InvalidParametersError } from '@nexus/core';
import { type GitRemote, projectPathOnInstance, remoteMatchesInstance } from './git-remote.js';
import type { ResolvedGitLabSettings } from './settings.js';
import { namespaceSegment } from './url-segments.js';

/**
 * What an action works on:
 * - `none`: nothing (project search, `whoami`);
 * - `project`: a project, given or detected from the git remote;
 * - `any-project`: like `project`, but omitted means every project (issue and MR lists);
 * - `group`: a group, always given;
 * - `project-or-group`: `group` when given, else a given project (`"this"` = the git remote);
 * - `anywhere`: `group` when given, else a given project (`"this"` = the git remote), else the whole instance (search).
 */
export type Scope = 'none' | 'project' | 'any-project' | 'group' | 'project-or-group' | 'anywhere';

/** The resolved target of a call. */
export interface Target {
  /** API path prefix: `/projects/<enc>`, `/groups/<enc>`, or `''`. */
  base: string;
  /** The project path or id the base encodes (`group/name`), when the target is a project. */
  project?: string;
  /** Words for messages: `project group/name`, `group g`, or `all projects`. */
  label: string;
}

/** Reads the origin remote of the agent's working directory once per call. */
export type RemoteLookup = () => Promise<GitRemote | undefined>;

function isThis(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'this';
}

/**
 * Picks the instance: the one named by `instance` (which must be configured), else the first
 * whose host serves the origin remote, else the default instance.
 */
export async function selectInstance(
  settings: ResolvedGitLabSettings,
  requested: string | undefined,
  remote: RemoteLookup,
): Promise<string> {
  const names = Object.keys(settings.instances);
  if (requested) {
    if (settings.instances[requested]) return requested;
    throw new InvalidParametersError(`GitLab instance '${requested}' not configured; configured instances: ${names.join(', ')}.`, {
      parameter: 'instance',
    });
  }
  const origin = await remote();
  const matching = origin && names.find((name) => remoteMatchesInstance(origin, (settings.instances[name] as { url: string }).url));
  return matching || settings.defaultInstance;
}

async function detectProject(remote: RemoteLookup, instanceName: string, instanceUrl: string): Promise<string> {
  const origin = await remote();
  if (!origin) {
    throw new InvalidParametersError(
      'No project specified and could not detect one: the working directory has no `origin` git remote. Pass `project`.',
      { parameter: 'project' },
    );
  }
  if (!remoteMatchesInstance(origin, instanceUrl)) {
    throw new InvalidParametersError(
      `No project specified and could not detect one: the origin remote is on ${origin.hostname}, not on GitLab instance '${instanceName}'. Pass \`project\`.`,
      { parameter: 'project' },
    );
  }
  return projectPathOnInstance(origin, instanceUrl);
}

/** Resolves the API path prefix of a call from its scope and its `project`/`group` arguments. */
export async function resolveTarget(
  scope: Scope,
  args: { project?: string | undefined; group?: string | undefined },
  instance: { name: string; url: string },
  remote: RemoteLookup,
): Promise<Target> {
  const project = args.project?.trim() || undefined;
  const group = args.group?.trim() || undefined;
  const forProject = async (value: string): Promise<Target> => {
    const path = isThis(value) ? await detectProject(remote, instance.name, instance.url) : value;
    return { base: `/projects/${namespaceSegment(path, 'project')}`, label: `project ${path}`, project: path };
  };
  switch (scope) {
    case 'none':
      return { base: '', label: '' };
    case 'group':
      if (!group) throw new InvalidParametersError('group parameter required.', { parameter: 'group' });
      return { base: `/groups/${namespaceSegment(group, 'group')}`, label: `group ${group}` };
    case 'project-or-group':
      if (group) return { base: `/groups/${namespaceSegment(group, 'group')}`, label: `group ${group}` };
      if (!project) throw new InvalidParametersError("Either 'project' or 'group' parameter is required.", { parameter: 'project' });
      return forProject(project);
    case 'any-project':
      return project ? forProject(project) : { base: '', label: 'all projects' };
    case 'anywhere':
      if (group) return { base: `/groups/${namespaceSegment(group, 'group')}`, label: `group ${group}` };
      return project ? forProject(project) : { base: '', label: 'the whole instance' };
    case 'project':
      return forProject(project ?? 'this');
  }
}
