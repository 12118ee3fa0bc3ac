import type { DefinitionFormat } from '@nexus/registry';
import { permissionsOf } from '../build-services.js';
import { type CommandLine, defineCommand, expectNoArguments, UsageError } from '../command.js';
import { createRegistry, toolFamilies } from '../create-registry.js';
import { describeExecIsolation, reportExecIsolation } from '../exec-isolation.js';
import { formatTable } from '../format-table.js';
import { COMMON, PERMISSIONS } from '../help-sections.js';
import { type Io, warningsTo } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';
import { access, leftOutBecause, summary } from '../tool-listing.js';

const FORMATS: readonly DefinitionFormat[] = ['openai', 'anthropic', 'mcp'];

const OPTIONS = { all: { type: 'boolean' }, json: { type: 'boolean' }, format: { type: 'string' } } as const;

function parseFormat(format: string | undefined, json: boolean): DefinitionFormat {
  if (format === undefined) return 'openai';
  if (!json) throw new UsageError('--format only applies with --json.');
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`Unknown format "${format}"; expected one of: ${FORMATS.join(', ')}.`);
  return format as DefinitionFormat;
}

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  expectNoArguments(line);
  const format = parseFormat(line.format, line.json);
  const settings = await resolveSettings(line.common, io);
  await using registry = await createRegistry(settings, undefined, warningsTo(io));
  const permissions = permissionsOf(settings);
  if (line.json) {
    const definitions = line.all ? registry.getDefinitions({ format }) : registry.getDefinitionsForPermissions(permissions, { format });
    io.stdout.write(`${JSON.stringify(definitions, null, 2)}\n`);
    return 0;
  }
  const families = await toolFamilies(settings, registry);
  const specs = registry.list();
  const leftOut = specs.filter((spec) => leftOutBecause(spec, permissions));
  const shown = line.all ? specs : specs.filter((spec) => !leftOutBecause(spec, permissions));
  const headers = line.all ? ['NAME', 'ACCESS', 'FAMILY', 'STATUS', 'DESCRIPTION'] : ['NAME', 'ACCESS', 'FAMILY', 'DESCRIPTION'];
  const rows = shown.map((spec) => {
    const status = line.all ? [leftOutBecause(spec, permissions) ?? 'enabled'] : [];
    return [spec.name, access(spec), families.get(spec.name) ?? '', ...status, summary(spec.description)];
  });
  io.stdout.write(`${formatTable(headers, rows)}\n\n`);
  io.stdout.write(`${specs.length - leftOut.length} tools enabled (preset ${settings.preset}, working directory ${settings.cwd}).\n`);
  if (leftOut.length > 0 && !line.all)
    io.stdout.write(`${leftOut.length} more are left out by the permissions; \`nexus tools --all\` says why.\n`);
  if (line.all && settings.families.includes('exec'))
    io.stdout.write(`${describeExecIsolation(await reportExecIsolation(settings), settings)}\n`);
  return 0;
}

/** `nexus tools`: the enabled tools as a table (with `--all`, also where commands run), or their definitions as JSON. */
export const toolsCommand = defineCommand({
  name: 'tools',
  summary: [{ usage: 'tools', text: 'List the tools the current permissions enable' }],
  options: OPTIONS,
  help: () => `Usage: nexus tools [options]

List the tools this configuration enables, as a table.

Options
  --all              Also list the tools the current permissions leave out, and why,
                     and whether commands run inside bubblewrap
                     (with --json: every tool's definition)
  --json             Print tool definitions as JSON instead
  --format <name>    With --json: openai (default), anthropic or mcp

${COMMON}

${PERMISSIONS}`,
  run,
});
