import { join } from 'node:path';
import type { ConfirmFunction, SkillFamily } from '@nexus/core';
import { checkToolRules, SkillRegistry } from '@nexus/registry';
import { flushAuditLogs } from './audit-log.js';
import { buildServices, permissionsOf } from './build-services.js';
import { checkHookTools } from './command-hooks.js';
import { closeSkillLibrary, type FamilyName, loadFamilies } from './families.js';
import type { McpServerRun } from './mcp-servers.js';
import type { Settings } from './resolve-settings.js';
import { flushTelemetry } from './telemetry.js';

/** The registry of one `nexus` run, with the MCP servers it started: dispose of it (`await using`) to end them. */
export interface NexusRegistry extends SkillRegistry, AsyncDisposable {
  /** The configured MCP servers: started (their tools registered), disabled, or why they could not start. */
  readonly mcpServers: readonly McpServerRun[];
  /** The families it uses (the enabled ones, then the MCP servers'), for registries of other policies over the same tools. */
  readonly families: readonly SkillFamily[];
}

/** Which family each tool comes from: an enabled family's name, or `mcp:<server>` for an imported tool. */
export async function toolFamilies(settings: Settings, registry: NexusRegistry): Promise<Map<string, string>> {
  const families = await loadFamilies(settings.families, settings);
  return new Map([
    ...families.flatMap((family, index) => family.skills.map((spec) => [spec.name, settings.families[index] as FamilyName] as const)),
    ...registry.mcpServers.flatMap(({ name, server }) => (server?.family.skills ?? []).map((spec) => [spec.name, `mcp:${name}`] as const)),
  ]);
}

/** The skill families of one `nexus` run, with what they hold open: dispose of them (`await using`) to end it. */
export interface RunFamilies extends AsyncDisposable {
  /** The named families, then those of the MCP servers that started. */
  readonly families: readonly SkillFamily[];
  /** The configured MCP servers: started (their tools registered), disabled, or why they could not start. */
  readonly mcpServers: readonly McpServerRun[];
}

/**
 * Loads the named families and starts the configured MCP servers (in parallel). A server that does
 * not start is told to `warn` and left out. Disposing of the result ends the servers and closes the
 * skill library (its watchers); so does a failure here, before the error is thrown.
 */
export async function openFamilies(
  settings: Settings,
  names: readonly FamilyName[],
  warn: (message: string) => void = () => {},
): Promise<RunFamilies> {
  const starting = startConfiguredMcpServers(settings, warn);
  const close = async () => {
    await Promise.all([closeMcpServers(starting), closeSkillLibrary(settings)]);
  };
  try {
    const [families, mcpServers] = await Promise.all([loadFamilies(names, settings), starting]);
    return { families: [...families, ...importedFamilies(mcpServers)], mcpServers, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The registry of one `nexus` run: the enabled families and the tools of the configured MCP servers
 * ({@link openFamilies}), with the services skills use — working directory, permission policy, exec
 * settings, GitLab instances and, when given, how to ask the user for confirmation. Disposing of the
 * registry ends what its families hold open, writes the audit records and sends the spans still
 * queued. When the registry cannot be built (a tool that cannot be registered), that is ended
 * before the error is thrown: a running server would keep the command alive.
 */
export async function createRegistry(
  settings: Settings,
  confirm?: ConfirmFunction,
  warn: (message: string) => void = () => {},
): Promise<NexusRegistry> {
  const services = buildServices(settings, confirm).register('cwd', settings.cwd).register('permissions', permissionsOf(settings));
  const opened = await openFamilies(settings, settings.families, warn);
  try {
    const registry = new SkillRegistry(services).use(...opened.families);
    // Changing families (skill packages) load their first packages in the background: list those, not ghosts.
    await registry.refresh();
    checkToolRules(registry, settings.rules);
    checkHookTools(registry, settings.hooks);
    const dispose = async () => {
      await Promise.all([opened[Symbol.asyncDispose](), flushAuditLogs(), flushTelemetry()]);
    };
    return Object.assign(registry, { mcpServers: opened.mcpServers, families: opened.families, [Symbol.asyncDispose]: dispose });
  } catch (error) {
    await opened[Symbol.asyncDispose]();
    throw error;
  }
}

/** Where MCP servers with `auth: "oauth"` keep their client and tokens. */
export function oauthDirectory(settings: Settings): string {
  return join(settings.stateDir, 'oauth');
}

/** Starts the configured MCP servers; one that does not start is told to `warn` (its tools are left out). */
async function startConfiguredMcpServers(settings: Settings, warn: (message: string) => void): Promise<McpServerRun[]> {
  if (Object.keys(settings.mcpServers).length === 0) return [];
  // Loaded only here: the MCP SDK is large, and most runs import no server.
  const { startMcpServers } = await import('./mcp-servers.js');
  const runs = await startMcpServers(settings.mcpServers, { oauthDirectory: oauthDirectory(settings) });
  for (const { error } of runs) if (error !== undefined) warn(`${error}; its tools are left out (see \`nexus mcp-servers list\`).`);
  return runs;
}

/** Ends the servers that started; given the start still under way, once it is done (nothing, when it failed). */
async function closeMcpServers(runs: readonly McpServerRun[] | Promise<readonly McpServerRun[]>): Promise<void> {
  const started = await Promise.resolve(runs).catch(() => []);
  await Promise.all(started.map(({ server }) => server?.close()));
}

/** The skill families of the servers that started. */
function importedFamilies(runs: readonly McpServerRun[]): SkillFamily[] {
  return runs.flatMap(({ server }) => (server ? [server.family] : []));
}
