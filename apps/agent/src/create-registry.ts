import { type AgentPermissions, type ConfirmFunction, resolvePreset, ServiceContainer, type SkillFamily } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { closeSkillLibrary, type FamilyName, loadFamilies } from './families.js';
import type { McpServerRun } from './mcp-servers.js';
import type { Settings } from './resolve-settings.js';

/** The registry of one `nexus` run, with the MCP servers it started: dispose of it (`await using`) to end them. */
export interface NexusRegistry extends SkillRegistry, AsyncDisposable {
  /** The configured MCP servers: started (their tools registered), disabled, or why they could not start. */
  readonly mcpServers: readonly McpServerRun[];
}

/** The permission policy the settings describe. */
export function permissionsOf(settings: Settings): AgentPermissions {
  return resolvePreset(settings.preset, {
    cwd: settings.cwd,
    allowedPaths: settings.allow,
    blockedPaths: settings.block,
    tools: settings.tools,
  });
}

/** Which family each tool comes from: an enabled family's name, or `mcp:<server>` for an imported tool. */
export async function toolFamilies(settings: Settings, registry: NexusRegistry): Promise<Map<string, string>> {
  const families = await loadFamilies(settings.families, settings);
  return new Map([
    ...families.flatMap((family, index) => family.skills.map((spec) => [spec.name, settings.families[index] as FamilyName] as const)),
    ...registry.mcpServers.flatMap(({ name, server }) => (server?.family.skills ?? []).map((spec) => [spec.name, `mcp:${name}`] as const)),
  ]);
}

/**
 * The registry of one `nexus` run: the enabled families and the tools of the configured MCP servers
 * (started in parallel with loading the families), with the services skills use — working
 * directory, permission policy, exec settings, GitLab instances and, when given, how to ask the user
 * for confirmation. A server that does not start is told to `warn` and left out; disposing of the
 * registry ends the others. When the registry cannot be built (a tool that cannot be registered),
 * what was started is ended before the error is thrown: a running server would keep the command alive.
 */
export async function createRegistry(
  settings: Settings,
  confirm?: ConfirmFunction,
  warn: (message: string) => void = () => {},
): Promise<NexusRegistry> {
  const services = new ServiceContainer()
    .register('cwd', settings.cwd)
    .register('permissions', permissionsOf(settings))
    .register('exec', settings.exec);
  if (confirm) services.register('confirm', confirm);
  if (settings.gitlab) services.register('gitlab', settings.gitlab);
  const starting = startConfiguredMcpServers(settings, warn);
  const dispose = async () => {
    await Promise.all([closeMcpServers(starting), closeSkillLibrary(settings)]);
  };
  try {
    const [families, mcpServers] = await Promise.all([loadFamilies(settings.families, settings), starting]);
    const registry = new SkillRegistry(services).use(...families, ...importedFamilies(mcpServers));
    // Changing families (skill packages) load their first packages in the background: list those, not ghosts.
    await registry.refresh();
    return Object.assign(registry, { mcpServers, [Symbol.asyncDispose]: dispose });
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Starts the configured MCP servers; one that does not start is told to `warn` (its tools are left out). */
export async function startConfiguredMcpServers(settings: Settings, warn: (message: string) => void): Promise<McpServerRun[]> {
  if (Object.keys(settings.mcpServers).length === 0) return [];
  // Loaded only here: the MCP SDK is large, and most runs import no server.
  const { startMcpServers } = await import('./mcp-servers.js');
  const runs = await startMcpServers(settings.mcpServers);
  for (const { error } of runs) if (error !== undefined) warn(`${error}; its tools are left out (see \`nexus mcp-servers list\`).`);
  return runs;
}

/** Ends the servers that started; given the start still under way, once it is done (nothing, when it failed). */
export async function closeMcpServers(runs: readonly McpServerRun[] | Promise<readonly McpServerRun[]>): Promise<void> {
  const started = await Promise.resolve(runs).catch(() => []);
  await Promise.all(started.map(({ server }) => server?.close()));
}

/** The skill families of the servers that started. */
export function importedFamilies(runs: readonly McpServerRun[]): SkillFamily[] {
  return runs.flatMap(({ server }) => (server ? [server.family] : []));
}
