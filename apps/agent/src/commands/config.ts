import { UsageError, type CommandLine } from '../command-line.js';
import { createRegistry, permissionsOf } from '../create-registry.js';
import type { Io } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';

/** `nexus config`: the effective configuration, the resolved permission policy and the enabled tools, as JSON. */
export async function configCommand(line: CommandLine, io: Io): Promise<number> {
  if (line.positionals.length > 0) throw new UsageError(`\`nexus config\` takes no arguments, got "${line.positionals[0]}".`);
  const settings = await resolveSettings(line.common, io);
  const permissions = permissionsOf(settings);
  const enabledTools = createRegistry(settings)
    .getDefinitionsForPermissions(permissions, { format: 'anthropic' })
    .map((definition) => definition.name);
  io.stdout.write(`${JSON.stringify({ ...settings, permissions, enabledTools }, null, 2)}\n`);
  return 0;
}
