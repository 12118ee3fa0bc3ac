import { permissionsOf } from '../build-services.js';
import { type CommandLine, UsageError } from '../command-line.js';
import { createRegistry } from '../create-registry.js';
import { formatTable } from '../format-table.js';
import type { Io } from '../io.js';
import { mcpServerRow } from '../mcp-servers.js';
import { resolveSettings } from '../resolve-settings.js';
import { access, leftOutBecause, summary } from '../tool-listing.js';

const USAGE = 'nexus mcp-servers list [--json] | nexus mcp-servers tools <name> [--json]';

/**
 * `nexus mcp-servers list`: starts the configured MCP servers (in parallel) and prints one line per
 * server — name, transport, state, tool count, last error — or, with `--json`, an array.
 * `nexus mcp-servers tools <name>`: that server's tools as imported, and whether the permissions
 * offer them. The servers are ended when the command ends.
 */
export async function mcpServersCommand(line: CommandLine, io: Io): Promise<number> {
  const [action, name, ...extra] = line.positionals;
  if (action !== 'list' && action !== 'tools') throw new UsageError(`Expected \`list\` or \`tools <name>\`: ${USAGE}.`);
  if (action === 'tools' && name === undefined) throw new UsageError(`Missing the server name: ${USAGE}.`);
  const unexpected = action === 'list' ? name : extra[0];
  if (unexpected !== undefined) throw new UsageError(`Unexpected argument "${unexpected}": ${USAGE}.`);

  const settings = await resolveSettings(line.common, io);
  await using registry = await createRegistry(settings);
  if (action === 'list') {
    const rows = registry.mcpServers.map(mcpServerRow);
    if (line.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else if (rows.length === 0)
      io.stdout.write('No MCP servers configured: add `mcpServers` to your user config file (see `nexus mcp-servers --help`).\n');
    else {
      const cells = rows.map((row) => [row.name, row.transport, row.state, String(row.toolCount), row.lastError ?? '']);
      io.stdout.write(`${formatTable(['NAME', 'TRANSPORT', 'STATE', 'TOOLS', 'LAST ERROR'], cells)}\n`);
    }
    return 0;
  }

  const run = registry.mcpServers.find((candidate) => candidate.name === name);
  if (!run) {
    const known = registry.mcpServers.map((candidate) => candidate.name).join(', ') || 'none';
    throw new UsageError(`No MCP server named "${name}" in your user config file; configured: ${known}.`);
  }
  if (!run.server) {
    io.stderr.write(
      `nexus: MCP server "${run.name}" ${run.error === undefined ? 'is disabled (`enabled: false`)' : `could not start: ${run.error}`}\n`,
    );
    return 1;
  }
  const permissions = permissionsOf(settings);
  const specs = run.server.family.skills;
  if (line.json) {
    const tools = specs.map((spec) => ({
      name: spec.name,
      description: spec.description,
      readOnly: spec.readOnly ?? false,
      destructive: spec.destructive ?? false,
      minimumLevel: spec.minimumLevel ?? 'sandboxed',
      enabled: leftOutBecause(spec, permissions) === undefined,
    }));
    io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    return 0;
  }
  const rows = specs.map((spec) => [spec.name, access(spec), leftOutBecause(spec, permissions) ?? 'enabled', summary(spec.description)]);
  io.stdout.write(`${formatTable(['NAME', 'ACCESS', 'STATUS', 'DESCRIPTION'], rows)}\n\n`);
  io.stdout.write(`${specs.length} tools from MCP server "${run.name}" (preset ${settings.preset}).\n`);
  return 0;
}
