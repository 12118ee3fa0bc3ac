import { type AgentPermissions, levelAtLeast, type SkillSpec } from '@nexus/core';
import type { DefinitionFormat } from '@nexus/registry';
import { type CommandLine, expectNoArguments, UsageError } from '../command-line.js';
import { createRegistry, permissionsOf, toolFamilies } from '../create-registry.js';
import { describeExecIsolation, reportExecIsolation } from '../exec-isolation.js';
import { formatTable } from '../format-table.js';
import type { Io } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';

const FORMATS: readonly DefinitionFormat[] = ['openai', 'anthropic', 'mcp'];
const DESCRIPTION_WIDTH = 72;

function parseFormat(format: string | undefined, json: boolean): DefinitionFormat {
  if (format === undefined) return 'openai';
  if (!json) throw new UsageError('--format only applies with --json.');
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`Unknown format "${format}"; expected one of: ${FORMATS.join(', ')}.`);
  return format as DefinitionFormat;
}

function access(spec: SkillSpec): string {
  if (spec.readOnly) return 'read';
  return spec.destructive ? 'write, destructive' : 'write';
}

function summary(description: string): string {
  // A sentence ends before a capital letter, so "e.g." and "1.5" do not end it.
  const sentence = /^.*?[.!?](?=\s+[A-Z]|\s*$)/s.exec(description)?.[0] ?? description;
  const line = sentence.replace(/\s+/g, ' ').trim();
  return line.length > DESCRIPTION_WIDTH ? `${line.slice(0, DESCRIPTION_WIDTH - 1)}…` : line;
}

/** Why a tool is left out of the list, or `undefined` when it is enabled. */
function leftOutBecause(spec: SkillSpec, permissions: AgentPermissions): string | undefined {
  if (permissions.tools[spec.name]?.enabled === false) return 'disabled by config';
  const minimum = spec.minimumLevel ?? 'sandboxed';
  return levelAtLeast(permissions.level, minimum) ? undefined : `needs --preset ${minimum}`;
}

/** `nexus tools`: the enabled tools as a table (with `--all`, also where commands run), or their definitions as JSON. */
export async function toolsCommand(line: CommandLine, io: Io): Promise<number> {
  expectNoArguments(line);
  const format = parseFormat(line.format, line.json);
  const settings = await resolveSettings(line.common, io);
  const registry = await createRegistry(settings);
  const permissions = permissionsOf(settings);
  if (line.json) {
    const definitions = line.all ? registry.getDefinitions({ format }) : registry.getDefinitionsForPermissions(permissions, { format });
    io.stdout.write(`${JSON.stringify(definitions, null, 2)}\n`);
    return 0;
  }
  const families = await toolFamilies(settings);
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
