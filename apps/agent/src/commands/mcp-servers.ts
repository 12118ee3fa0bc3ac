import { permissionsOf } from '../build-services.js';
import { type CommandLine, defineCommand, UsageError } from '../command.js';
import { createRegistry, oauthDirectory } from '../create-registry.js';
import { formatTable } from '../format-table.js';
import { COMMON } from '../help-sections.js';
import type { Io } from '../io.js';
import { resolveSettings, type Settings } from '../resolve-settings.js';
import { access, leftOutBecause, summary } from '../tool-listing.js';

const USAGE = 'nexus mcp-servers list [--json] | nexus mcp-servers tools <name> [--json] | nexus mcp-servers login <name>';

const OPTIONS = { json: { type: 'boolean' } } as const;

/** `nexus mcp-servers login <name>`: signs in to a server configured with `auth: "oauth"`, the person approving in a browser. */
async function login(name: string, settings: Settings, io: Io): Promise<number> {
  const entry = settings.mcpServers[name];
  if (!entry)
    throw new UsageError(
      `No MCP server named "${name}" in your user config file; configured: ${Object.keys(settings.mcpServers).join(', ') || 'none'}.`,
    );
  const { mcpOAuthClient, parseMcpServerConfig } = await import('@nexus/mcp');
  const { enabled: _enabled, ...config } = entry;
  const client = mcpOAuthClient(name, parseMcpServerConfig(name, config), { oauthDirectory: oauthDirectory(settings) });
  if (!client) throw new UsageError(`MCP server "${name}" does not sign in with OAuth: give it "auth": "oauth" in your user config file.`);
  const cancel = new AbortController();
  const unsubscribe = io.onInterrupt(() => cancel.abort());
  try {
    await client.login((url) => void io.stderr.write(`Open this address in a browser to sign in to "${name}":\n  ${url.href}\n`), {
      signal: cancel.signal,
    });
  } finally {
    unsubscribe();
  }
  io.stdout.write(`Signed in to MCP server "${name}"; its tokens are kept under ${oauthDirectory(settings)} (readable by you only).\n`);
  return 0;
}

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  const [action, name, ...extra] = line.positionals;
  if (action !== 'list' && action !== 'tools' && action !== 'login')
    throw new UsageError(`Expected \`list\`, \`tools <name>\` or \`login <name>\`: ${USAGE}.`);
  if (action !== 'list' && name === undefined) throw new UsageError(`Missing the server name: ${USAGE}.`);
  const unexpected = action === 'list' ? name : extra[0];
  if (unexpected !== undefined) throw new UsageError(`Unexpected argument "${unexpected}": ${USAGE}.`);

  const settings = await resolveSettings(line.common, io);
  if (action === 'login') return login(name as string, settings, io);
  await using registry = await createRegistry(settings);
  if (action === 'list') {
    // Loaded here: it loads the MCP SDK, which the other commands need not load.
    const { mcpServerRow } = await import('../mcp-servers.js');
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

/**
 * `nexus mcp-servers list`: starts the configured MCP servers (in parallel) and prints one line per
 * server — name, transport, state, tool count, last error — or, with `--json`, an array.
 * `nexus mcp-servers tools <name>`: that server's tools as imported, and whether the permissions
 * offer them. The servers are ended when the command ends.
 */
export const mcpServersCommand = defineCommand({
  name: 'mcp-servers',
  summary: [
    { usage: 'mcp-servers list', text: 'List the imported MCP servers: state, tool count, last error' },
    { usage: 'mcp-servers tools <name>', text: "List one imported MCP server's tools" },
    { usage: 'mcp-servers login <name>', text: 'Sign in to an MCP server that wants OAuth' },
  ],
  options: OPTIONS,
  help: () => `Usage: nexus mcp-servers list [--json]
       nexus mcp-servers tools <name> [--json]
       nexus mcp-servers login <name>

MCP servers whose tools Nexus imports, from "mcpServers" in your own config file (a
working directory's file may not add servers: they run programs and decide where
headers go). Each entry has the shape MCP clients use, plus Nexus fields:
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"],
               "readOnly": true },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/",
                "headers": { "Authorization": "Bearer …" }, "level": "yolo" },
    "old": { "command": "legacy-server", "enabled": false }
  }
  command, args, env, cwd   A stdio server; it starts with a sanitised environment plus env
  type "http", url, headers A Streamable HTTP server
  level                     Lowest preset its tools are offered at (default trusted)
  readOnly                  Offer its tools that say readOnlyHint at sandboxed
  enabled                   false: keep the entry, start nothing
  auth "oauth"              The server wants OAuth: sign in once with nexus mcp-servers login;
                            "oauth": { "clientId", "scope" } when its authorization server
                            does not let Nexus register itself
  timeoutSeconds            Per call while the server is silent (default 60; progress resets it)
  maxTotalSeconds           Per call in all (default 600)

Imported tools are named mcp__<server>__<tool> and appear in nexus tools, call and mcp
(also in agents); at trusted the first call to a server asks for confirmation. Servers
start in parallel when a command needs the tools and end with it; a server that crashes
starts again at the next call (at most 3 times in 5 minutes, then it is failed).

Actions
  list               One line per server: name, transport, state (running, stopped,
                     failed, disabled), tool count, last error
  tools <name>       The server's tools as imported, and whether the permissions offer them
  login <name>       Sign in to a server with "auth": "oauth": prints an address to open in a
                     browser, waits for the approval on a loopback port, and keeps the tokens
                     in $XDG_STATE_HOME/nexus/oauth/<name>.json (0600); they are refreshed
                     by themselves and sent to that server only

Options
  --json             list: [{ name, transport, state, toolCount, lastError }];
                     tools: [{ name, description, readOnly, destructive, minimumLevel, enabled }]

${COMMON}`,
  run,
});
