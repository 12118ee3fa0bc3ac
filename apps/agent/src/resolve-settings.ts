import { realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AgentSettings } from '@nexus/agents';
import { ConfigError, levelAtLeast, nexusStateDir, normalizePath, type PermissionLevel, type ToolPermission } from '@nexus/core';
import { type ExecSettings, parseExecSettings } from '@nexus/process';
import type { GitLabSettings } from '@nexus/skills-gitlab';
import type { ConfigFile } from './config-file.js';
import { FAMILY_NAMES, type FamilyName, OPT_IN_FAMILIES } from './families.js';
import { type GovernanceSettings, governanceWidenings, mergeGovernance } from './governance-settings.js';
import type { McpServerEntry } from './mcp-servers.js';

/** The permission-related flags every command takes. */
export interface CommonFlags {
  cwd?: string;
  preset?: PermissionLevel;
  allow?: string[];
  block?: string[];
  families?: FamilyName[];
  /** A config file to read instead of the one in the user's config directory. */
  config?: string;
}

/** The effective configuration: defaults, then the user's file, the working directory's file, and the flags. */
export interface Settings extends GovernanceSettings {
  /** Working directory and sandbox root (real path). */
  cwd: string;
  preset: PermissionLevel;
  /** Extra roots to read and write, absolute. */
  allow: string[];
  /** Paths refused at every level, absolute. */
  block: string[];
  /** Enabled families, in listing order. */
  families: FamilyName[];
  tools: Record<string, Partial<ToolPermission>>;
  http: NonNullable<ConfigFile['http']>;
  /** The agent server's port (`nexus serve`, `nexus agents`), from the user's config file only. */
  servePort: number | undefined;
  /** How command skills isolate what they run. */
  exec: ExecSettings;
  /** GitLab instances, from the user's config file only. */
  gitlab?: GitLabSettings;
  /** Where the skills family finds packages (`@nexus/skills-md`). */
  skills: SkillsSettings;
  /** MCP servers whose tools are imported, from the user's config file only. */
  mcpServers: Record<string, McpServerEntry>;
  /** The key `nexus mcp` signs confirmations' state with (`mcp.stateKey`), from the user's config file only. */
  mcpStateKey?: string;
  /** LLM providers and models (the user's config file only), the default model and agent defaults. */
  llm: AgentSettings;
  /** The OpenID issuer whose people may call the HTTP surfaces (`auth`), from the user's config file only. */
  auth?: NonNullable<ConfigFile['auth']>;
  /** The config files that were read. */
  files: { user?: string; workingDirectory?: string };
  /** Where Nexus keeps its state (`$XDG_STATE_HOME/nexus`): sessions, tokens, the audit log. */
  stateDir: string;
}

/** Where the skills family finds packages and keeps its records. */
export interface SkillsSettings {
  /** Further user roots, absolute (from the user's config file only). */
  roots: string[];
  /** Where outputs without a path go, relative to the working directory. */
  outputDirectory?: string;
  /** Most packages loaded at once (the library's default when absent). */
  maxLoaded?: number;
  /** Packages never unloaded. */
  pinned: string[];
  /** Default skill folders turned off (`~/.claude/skills`, …), by either config file. */
  disabledFolders: string[];
  /** `person` where a person runs the packages (`nexus skills run`): those the model may not invoke are offered too. */
  invokedBy?: 'person';
  /** The variables the user's directories come from (`$XDG_CONFIG_HOME/nexus/skills`, `~/.agents/skills`, `$XDG_STATE_HOME/nexus`). */
  environment: { XDG_CONFIG_HOME?: string; XDG_STATE_HOME?: string; HOME?: string };
}

/** Everything {@link resolveSettings} reads from its surroundings. */
export interface Environment {
  /** Directory the command was started in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

async function resolveWorkingDirectory(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) throw new ConfigError(`Expected \`--cwd\` to be an existing directory, got "${path}".`);
  return realpath(path);
}

/**
 * A working-directory config file comes with the project, which may not be the user's own (a
 * cloned repository), so it may only narrow what the user allowed: no `allow`, no per-tool
 * paths or re-enabling, no network settings, and no `preset` above the one otherwise in effect.
 */
function assertOnlyNarrows(config: ConfigFile, file: string, ceiling: PermissionLevel): void {
  const fix = 'a working-directory config may only narrow permissions; put it in your user config file or on the command line';
  const refuse = (field: string) => {
    throw new ConfigError(`${file}: \`${field}\` is not allowed here (${fix}).`);
  };
  if (config.preset && !levelAtLeast(ceiling, config.preset)) refuse('preset');
  if (config.allow?.length) refuse('allow');
  for (const [tool, permission] of Object.entries(config.tools ?? {})) {
    if (permission.allowedPaths !== undefined) refuse(`tools.${tool}.allowedPaths`);
    if (permission.enabled === true) refuse(`tools.${tool}.enabled`);
    if (permission.requiresConfirmation === false) refuse(`tools.${tool}.requiresConfirmation`);
  }
  for (const field of ['host', 'allowedHosts', 'allowedOrigins'] as const) if (config.http?.[field] !== undefined) refuse(`http.${field}`);
  // A project may ask for bubblewrap and turn the network off, never the reverse.
  if (config.exec?.sandbox !== undefined && config.exec.sandbox !== 'bubblewrap') refuse('exec.sandbox');
  if (config.exec?.network === true) refuse('exec.network');
  // Instance URLs decide where tokens are sent, provider entries where API keys go.
  if (config.gitlab !== undefined) refuse('gitlab');
  // Roots of user skills are trusted: their commands run without `nexus skills trust`.
  if (config.skills?.roots !== undefined) refuse('skills.roots');
  for (const [folder, on] of Object.entries(config.skills?.folders ?? {})) if (on) refuse(`skills.folders.${folder}`);
  // Servers are programs to run, and their entries decide where headers are sent.
  if (config.mcpServers !== undefined) refuse('mcpServers');
  // A secret: a cloned repository must not choose the key its confirmations are signed with.
  if (config.mcp?.stateKey !== undefined) refuse('mcp.stateKey');
  // Whose tokens open the HTTP surfaces is the user's to say.
  if (config.auth !== undefined) refuse('auth');
  if (config.providers !== undefined) refuse('providers');
  // Clients send the agent server's key to that port.
  if (config.serve !== undefined) refuse('serve');
  if (config.models !== undefined) refuse('models');
  for (const field of governanceWidenings(config)) refuse(field);
}

/** The enabled families: as chosen, else every family whose settings exist (GitLab needs instances) except the opt-in ones. */
function chooseFamilies(chosen: readonly FamilyName[] | undefined, gitlab: GitLabSettings | undefined): FamilyName[] {
  if (chosen?.includes('gitlab') && !gitlab) {
    throw new ConfigError('The gitlab family needs GitLab instances: add `gitlab` to your user config file (see `nexus config --help`).');
  }
  const wanted = chosen ?? FAMILY_NAMES.filter((family) => !OPT_IN_FAMILIES.includes(family) && (family !== 'gitlab' || gitlab));
  return FAMILY_NAMES.filter((family) => wanted.includes(family));
}

/** The LLM settings: endpoints and models from the user's file, the default model and agent defaults from either. */
function mergeLlm(user: ConfigFile | undefined, project: ConfigFile | undefined): AgentSettings {
  const defaultModel = project?.defaultModel ?? user?.defaultModel;
  if (defaultModel !== undefined && !Object.hasOwn(user?.models ?? {}, defaultModel)) {
    throw new ConfigError(`\`defaultModel\`: No model named "${defaultModel}" in your user config file's \`models\`.`);
  }
  const agent = user?.agent || project?.agent ? { ...user?.agent, ...project?.agent } : undefined;
  return {
    ...(user?.providers ? { providers: user.providers } : {}),
    ...(user?.models ? { models: user.models } : {}),
    ...(defaultModel ? { defaultModel } : {}),
    ...(agent ? { agent } : {}),
  };
}

/** The default skill folders a config file turns off. */
function turnedOff(file: ConfigFile | undefined): string[] {
  return Object.entries(file?.skills?.folders ?? {}).flatMap(([folder, on]) => (on ? [] : [folder]));
}

/** The skills settings: roots from the user's file, the output directory, `maxLoaded` and `pinned` from either, the user's directories from the environment. */
function skillsSettings(
  user: ConfigFile | undefined,
  project: ConfigFile | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): SkillsSettings {
  const outputDirectory = project?.skills?.outputDirectory ?? user?.skills?.outputDirectory;
  const maxLoaded = project?.skills?.maxLoaded ?? user?.skills?.maxLoaded;
  const { XDG_CONFIG_HOME, XDG_STATE_HOME, HOME } = env;
  return {
    roots: (user?.skills?.roots ?? []).map((path) => normalizePath(path, cwd)),
    ...(outputDirectory ? { outputDirectory } : {}),
    ...(maxLoaded ? { maxLoaded } : {}),
    pinned: project?.skills?.pinned ?? user?.skills?.pinned ?? [],
    disabledFolders: [...new Set([...turnedOff(user), ...turnedOff(project)])],
    environment: {
      ...(XDG_CONFIG_HOME ? { XDG_CONFIG_HOME } : {}),
      ...(XDG_STATE_HOME ? { XDG_STATE_HOME } : {}),
      ...(HOME ? { HOME } : {}),
    },
  };
}

/** Per-tool settings, later layers winning field by field; their paths resolve against `cwd`. */
function mergeTools(cwd: string, ...layers: (ConfigFile | undefined)[]): Settings['tools'] {
  const tools: Settings['tools'] = {};
  for (const layer of layers) {
    for (const [tool, { allowedPaths, ...permission }] of Object.entries(layer?.tools ?? {})) {
      tools[tool] = {
        ...tools[tool],
        ...permission,
        ...(allowedPaths === undefined
          ? {}
          : { allowedPaths: allowedPaths === null ? null : allowedPaths.map((path) => normalizePath(path, cwd)) }),
      };
    }
  }
  return tools;
}

/**
 * Builds the effective configuration. Precedence: flags, then `nexus.config.json` in the working
 * directory, then the user's config file (`--config` or `$XDG_CONFIG_HOME/nexus/nexus.config.json`),
 * then the defaults (`sandboxed`, every family — GitLab once instances are configured — rooted at
 * the working directory). `allow` adds up over the user file and flags, `block` over every source.
 */
export async function resolveSettings(flags: CommonFlags, environment: Environment): Promise<Settings> {
  const cwd = await resolveWorkingDirectory(resolve(environment.cwd, flags.cwd ?? '.'));
  // Loaded only here: the config files' schema needs zod, which is large, and `nexus --help` reads no config.
  const { CONFIG_FILE_NAME, readConfigFile, userConfigPath } = await import('./config-file.js');
  const userFile = flags.config ? resolve(environment.cwd, flags.config) : userConfigPath(environment.env);
  const user = await readConfigFile(userFile);
  if (flags.config && !user) throw new ConfigError(`Expected \`--config\` to name an existing file, got "${flags.config}".`);
  const projectFile = join(cwd, CONFIG_FILE_NAME);
  const project = projectFile === userFile ? undefined : await readConfigFile(projectFile);
  if (project) assertOnlyNarrows(project, projectFile, flags.preset ?? user?.preset ?? 'sandboxed');

  const paths = (list: readonly string[] | undefined) => (list ?? []).map((path) => normalizePath(path, cwd));
  const files: Settings['files'] = {};
  if (user) files.user = userFile;
  if (project) files.workingDirectory = projectFile;
  return {
    cwd,
    preset: flags.preset ?? project?.preset ?? user?.preset ?? 'sandboxed',
    allow: [...paths(user?.allow), ...paths(flags.allow)],
    block: [...paths(user?.block), ...paths(project?.block), ...paths(flags.block)],
    families: chooseFamilies(flags.families ?? project?.families ?? user?.families, user?.gitlab),
    tools: mergeTools(cwd, user, project),
    http: { ...user?.http, ...project?.http },
    servePort: user?.serve?.port,
    exec: parseExecSettings({ ...user?.exec, ...project?.exec }),
    ...(user?.gitlab ? { gitlab: user.gitlab } : {}),
    skills: skillsSettings(user, project, cwd, environment.env),
    mcpServers: user?.mcpServers ?? {},
    ...(user?.mcp?.stateKey ? { mcpStateKey: user.mcp.stateKey } : {}),
    ...(user?.auth ? { auth: user.auth } : {}),
    llm: mergeLlm(user, project),
    ...mergeGovernance(user, project, environment.env),
    files,
    stateDir: nexusStateDir(environment.env),
  };
}
