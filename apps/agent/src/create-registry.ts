import { resolvePreset, ServiceContainer, type AgentPermissions, type ConfirmFunction } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { FAMILIES, type FamilyName } from './families.js';
import type { Settings } from './resolve-settings.js';

/** The permission policy the settings describe. */
export function permissionsOf(settings: Settings): AgentPermissions {
  return resolvePreset(settings.preset, { cwd: settings.cwd, allowedPaths: settings.allow, blockedPaths: settings.block, tools: settings.tools });
}

/** Which family each tool of the enabled families comes from, in listing order. */
export function toolFamilies(settings: Settings): Map<string, FamilyName> {
  return new Map(settings.families.flatMap((family) => FAMILIES[family].skills.map((spec) => [spec.name, family] as const)));
}

/**
 * The registry of one `nexus` run: the enabled families, with the services skills use — working
 * directory, permission policy and, when given, how to ask the user for confirmation.
 */
export function createRegistry(settings: Settings, confirm?: ConfirmFunction): SkillRegistry {
  const services = new ServiceContainer().register('cwd', settings.cwd).register('permissions', permissionsOf(settings));
  if (confirm) services.register('confirm', confirm);
  if (settings.gitlab) services.register('gitlab', settings.gitlab);
  return new SkillRegistry(services).use(...settings.families.map((family) => FAMILIES[family]));
}
