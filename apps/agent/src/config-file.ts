import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentDefaults, AgentSettings } from '@nexus/agents';
import { ConfigError, formatSchemaIssues, PERMISSION_LEVELS, type PermissionLevel } from '@nexus/core';
import { EXEC_SANDBOX_MODES } from '@nexus/process';
import type { GitLabSettings } from '@nexus/skills-gitlab';
import { z } from 'zod';
import { authSchema } from './auth-schema.js';
import { FAMILY_NAMES } from './families.js';
import { governanceFields } from './governance-schema.js';
import type { McpServerEntry } from './mcp-servers.js';

/** File name looked up in the working directory and in the user's config directory. */
export const CONFIG_FILE_NAME = 'nexus.config.json';

const toolSchema = z.strictObject({
  enabled: z.boolean().optional(),
  allowedPaths: z.array(z.string()).nullable().optional(),
  requiresConfirmation: z.boolean().optional(),
});

const httpSchema = z.strictObject({
  host: z.string().min(1).optional(),
  port: z.int().min(0).max(65535).optional(),
  allowedHosts: z.array(z.string()).optional(),
  allowedOrigins: z.array(z.string()).optional(),
  /** Minutes a session may go without a request before it is closed (default 30). */
  sessionIdleMinutes: z.number().positive().optional(),
});

const execSchema = z.strictObject({
  sandbox: z.enum(EXEC_SANDBOX_MODES).optional(),
  network: z.boolean().optional(),
});

const skillsSchema = z.strictObject({
  /** Further folders of skill packages (user roots, trusted); from the user's file only. */
  roots: z.array(z.string()).optional(),
  /** Where outputs without a path go, relative to the working directory (default mybox/output). */
  outputDirectory: z.string().min(1).optional(),
  /** Most packages loaded at once, their tools listed in full; the others are ghost tools (default 15). */
  maxLoaded: z.int().min(1).optional(),
  /** Names of packages loaded from the start and never unloaded. */
  pinned: z.array(z.string().min(1)).optional(),
  /** Default skill folders switched on or off by name (`"~/.claude/skills": false`); a project's file may only turn them off. */
  folders: z.record(z.string(), z.boolean()).optional(),
});

/** The shape of `nexus.config.json`. */
const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  preset: z.enum(PERMISSION_LEVELS as [PermissionLevel, ...PermissionLevel[]]).optional(),
  allow: z.array(z.string()).optional(),
  block: z.array(z.string()).optional(),
  families: z.array(z.enum(FAMILY_NAMES)).optional(),
  tools: z.record(z.string(), toolSchema).optional(),
  http: httpSchema.optional(),
  /** The agent server of `nexus serve`, which `nexus agents` talks to: `port` (default 8765). */
  serve: z.strictObject({ port: z.int().min(0).max(65535).optional() }).optional(),
  /** `nexus mcp --http`: `stateKey` signs confirmations' state, shared by processes behind one load balancer; the user's file only. */
  mcp: z.strictObject({ stateKey: z.string().min(32).optional() }).optional(),
  /**
   * Who may call the HTTP surfaces besides the static token's holder: people an OpenID Connect
   * issuer vouches for (JWT access tokens for `audience`); the user's file only.
   */
  auth: authSchema.optional(),
  /** How command skills isolate what they run (see `@nexus/process`'s `ExecSettings`). */
  exec: execSchema.optional(),
  /** GitLab instances (see `@nexus/skills-gitlab`), checked by `parseGitLabSettings`. */
  gitlab: z.custom<GitLabSettings>().optional(),
  /** SKILL.md skill packages (see `@nexus/skills-md`). */
  skills: skillsSchema.optional(),
  /** MCP servers whose tools to import, in MCP clients' shape (see `@nexus/mcp`), checked by `checkMcpServers`. */
  mcpServers: z.record(z.string().min(1), z.custom<McpServerEntry>()).optional(),
  /** LLM endpoints and model aliases (see `@nexus/agents`), checked by `parseAgentSettings`. */
  providers: z.custom<AgentSettings['providers']>().optional(),
  models: z.custom<AgentSettings['models']>().optional(),
  defaultModel: z.string().min(1).optional(),
  /** Defaults of `nexus run` / `nexus chat` agents. */
  agent: z.custom<AgentDefaults>().optional(),
  /** `rules`, `hooks`, `audit`, `telemetry` (see `./governance-schema.ts`). */
  ...governanceFields,
});

const LLM_FIELDS = ['providers', 'models', 'defaultModel', 'agent'] as const;

/** A validated `nexus.config.json`. */
export type ConfigFile = z.infer<typeof configFileSchema>;

/** Validates parsed JSON as a config file; the error names the file and the bad field. */
async function parseConfigFile(value: unknown, file: string): Promise<ConfigFile> {
  const result = configFileSchema.safeParse(value);
  if (!result.success) throw new ConfigError(`${file}: ${formatSchemaIssues(result.error.issues)}`);
  if (result.data.gitlab !== undefined) {
    // Loaded only here: the GitLab family is large, and most runs have no GitLab settings.
    const { parseGitLabSettings } = await import('@nexus/skills-gitlab');
    try {
      parseGitLabSettings(result.data.gitlab);
    } catch (error) {
      throw new ConfigError(`${file}: \`gitlab\`: ${(error as Error).message}`, { cause: error });
    }
  }
  if (result.data.skills?.folders !== undefined) {
    // Loaded only here: most runs name no skill folder.
    const { SKILL_FOLDER_NAMES } = await import('@nexus/skills-md');
    const unknown = Object.keys(result.data.skills.folders).find((name) => !(SKILL_FOLDER_NAMES as readonly string[]).includes(name));
    if (unknown !== undefined)
      throw new ConfigError(
        `${file}: \`skills.folders\`: no skill folder is named "${unknown}" (the folders: ${SKILL_FOLDER_NAMES.join(', ')}).`,
      );
  }
  if (result.data.mcpServers !== undefined) {
    // Loaded only here: the MCP SDK is large, and most runs import no server.
    const { checkMcpServers } = await import('./mcp-servers.js');
    checkMcpServers(result.data.mcpServers, file);
  }
  if (LLM_FIELDS.some((field) => result.data[field] !== undefined)) {
    // Loaded only here: the agents package brings the AI SDK.
    const { parseAgentSettings } = await import('@nexus/agents');
    const { providers, models, agent } = result.data;
    try {
      // `defaultModel` may name a model of another file; it is checked once the files are merged.
      parseAgentSettings({ providers, models, agent });
    } catch (error) {
      throw new ConfigError(`${file}: ${(error as Error).message}`, { cause: error });
    }
  }
  return result.data;
}

/** Reads and validates a config file; `undefined` when it does not exist. */
export async function readConfigFile(file: string): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${file}: cannot be read (${(error as Error).message})`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  return parseConfigFile(json, file);
}

/** Where the user's own config file lives: `$XDG_CONFIG_HOME/nexus/`, else `~/.config/nexus/` (`%APPDATA%\nexus\` on Windows). */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA) || join(homedir(), '.config');
  return join(base, 'nexus', CONFIG_FILE_NAME);
}
