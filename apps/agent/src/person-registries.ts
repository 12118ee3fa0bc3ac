import { levelAtLeast, normalizePath, type ToolRule } from '@nexus/core';
import type { HttpServeOptions } from '@nexus/mcp';
import { SkillRegistry } from '@nexus/registry';
import { buildServices, permissionsOf } from './build-services.js';
import type { NexusRegistry } from './create-registry.js';
import type { Settings } from './resolve-settings.js';

/** An entry of the config's `auth.users`. */
type UserEntry = NonNullable<NonNullable<Settings['auth']>['users']>[number];
/** A person the HTTP surface verified. */
type Person = Parameters<NonNullable<HttpServeOptions['registryFor']>>[0];

/** The settings of a person an `auth.users` entry admits: never above the server's preset, the entry's paths blocked too, its rules first. */
export function personSettings(settings: Settings, entry: UserEntry): Settings {
  const preset = entry.preset && levelAtLeast(settings.preset, entry.preset) ? entry.preset : settings.preset;
  return {
    ...settings,
    preset,
    block: [...settings.block, ...(entry.block ?? []).map((path) => normalizePath(path, settings.cwd))],
    rules: [...((entry.rules ?? []) as ToolRule[]), ...settings.rules],
  };
}

/**
 * `nexus mcp --http`'s registry for each person: one per `auth.users` entry that narrows anything
 * (a preset, blocked paths, rules), built on first use over the same families, through the same
 * services as the server's own; `undefined` (the server's registry) for the others.
 */
export function personRegistries(settings: Settings, registry: NexusRegistry) {
  const built = new Map<UserEntry, SkillRegistry>();
  return {
    registryFor(caller: Person): SkillRegistry | undefined {
      const entry = caller.entry as UserEntry | undefined;
      if (!entry || (entry.preset === undefined && !entry.block?.length && !entry.rules?.length)) return undefined;
      let own = built.get(entry);
      if (!own) {
        const narrowed = personSettings(settings, entry);
        const services = buildServices(narrowed).register('cwd', narrowed.cwd).register('permissions', permissionsOf(narrowed));
        own = new SkillRegistry(services).use(...registry.families);
        built.set(entry, own);
      }
      return own;
    },
    close(): void {
      for (const own of built.values()) own.close();
    },
  };
}
