import { type AgentPermissions, type ConfirmFunction, resolvePreset, ServiceContainer } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { type FamilyName, loadFamilies } from './families.js';
import type { Settings } from './resolve-settings.js';

/** The permission policy the settings describe. */
export function permissionsOf(settings: Settings): AgentPermissions {
  return resolvePreset(settings.preset, {
    cwd: settings.cwd,
    allowedPaths: settings.allow,
    blockedPaths: settings.block,
    tools: settings.tools,
  });
}

/** Which family each tool of the enabled families comes from. */
export async function toolFamilies(settings: Settings): Promise<Map<string, FamilyName>> {
  const families = await loadFamilies(settings.families, settings);
  return new Map(
    families.flatMap((family, index) => family.skills.map((spec) => [spec.name, settings.families[index] as FamilyName] as const)),
  );
}

/**
 * The registry of one `nexus` run: the enabled families, with the services skills use — working
 * directory, permission policy, exec settings, GitLab instances and, when given, how to ask the user
 * for confirmation.
 */
export async function createRegistry(settings: Settings, confirm?: ConfirmFunction): Promise<SkillRegistry> {
  const services = new ServiceContainer()
    .register('cwd', settings.cwd)
    .register('permissions', permissionsOf(settings))
    .register('exec', settings.exec);
  if (confirm) services.register('confirm', confirm);
  if (settings.gitlab) services.register('gitlab', settings.gitlab);
  return new SkillRegistry(services).use(...(await loadFamilies(settings.families, settings)));
}
