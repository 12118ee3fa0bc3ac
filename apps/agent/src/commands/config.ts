import { isSecretName } from '@nexus/core';
import { AUTH } from '../auth-help.js';
import { permissionsOf } from '../build-services.js';
import { type CommandLine, defineCommand, expectNoArguments } from '../command.js';
import { createRegistry } from '../create-registry.js';
import { reportExecIsolation } from '../exec-isolation.js';
import { GOVERNANCE } from '../governance-help.js';
import { COMMON, CONFIGURATION } from '../help-sections.js';
import type { Io } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';

/** Hides secrets (a GitLab `token`) but keeps where they come from (`tokenEnv`, `tokenFile`). */
function hideSecrets(key: string, value: unknown): unknown {
  return typeof value === 'string' && isSecretName(key) && !/(Env|File)$/.test(key) ? '<hidden>' : value;
}

async function run(line: CommandLine, io: Io): Promise<number> {
  expectNoArguments(line);
  const settings = await resolveSettings(line.common, io);
  const permissions = permissionsOf(settings);
  await using registry = await createRegistry(settings);
  const enabledTools = registry.getDefinitionsForPermissions(permissions, { format: 'anthropic' }).map((definition) => definition.name);
  const exec = { ...settings.exec, ...(await reportExecIsolation(settings)) };
  io.stdout.write(`${JSON.stringify({ ...settings, exec, permissions, enabledTools }, hideSecrets, 2)}\n`);
  return 0;
}

/**
 * `nexus config`: the effective configuration, the resolved permission policy and the enabled tools,
 * as JSON; `exec.isolation` says whether commands run inside bubblewrap (or `none`, with the reason).
 */
export const configCommand = defineCommand({
  name: 'config',
  summary: [{ usage: 'config', text: 'Print the effective configuration' }],
  options: {},
  help: () => `Usage: nexus config [options]

Print the effective configuration as JSON: the files read, the preset, paths,
families, per-tool settings, rules, the resolved permission policy and the enabled tools.

${COMMON}

${CONFIGURATION}

${GOVERNANCE}

${AUTH}`,
  run,
});
