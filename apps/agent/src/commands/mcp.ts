import type { McpServerOptions } from '@nexus/mcp';
import packageJson from '../../package.json' with { type: 'json' };
import { permissionsOf } from '../build-services.js';
import { type CommandLine, defineCommand, expectNoArguments, parsePort, UsageError } from '../command.js';
import { createRegistry } from '../create-registry.js';
import { skillPackageProblems } from '../families.js';
import { COMMON, PERMISSIONS } from '../help-sections.js';
import { type Io, warningsTo } from '../io.js';
import { personRegistries } from '../person-registries.js';
import { resolveSettings, type Settings } from '../resolve-settings.js';

const SERVER_OPTIONS: McpServerOptions = { name: 'nexus', version: packageJson.version };
const STATE_KEY_BYTES = 32;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

const OPTIONS = { http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } } as const;

function describe(settings: Settings, toolCount: number): string {
  return `${toolCount} tools, preset ${settings.preset}, working directory ${settings.cwd}`;
}

/** The key confirmations' state is signed with: `NEXUS_MCP_STATE_KEY`, else the user config's `mcp.stateKey`, else none (a random one). */
function stateKeyOf(fromEnvironment: string | undefined, settings: Settings): string | undefined {
  if (!fromEnvironment) return settings.mcpStateKey;
  if (Buffer.byteLength(fromEnvironment) < STATE_KEY_BYTES) {
    throw new UsageError(`NEXUS_MCP_STATE_KEY must be at least ${STATE_KEY_BYTES} bytes (for example \`openssl rand -base64 32\`).`);
  }
  return fromEnvironment;
}

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  expectNoArguments(line);
  if (!line.http && (line.port !== undefined || line.host !== undefined)) throw new UsageError('--port and --host only apply with --http.');
  // Loaded here: the MCP SDK is large, and the other commands need not load it.
  const { ClientLog, serveHttp, serveStdio } = await import('@nexus/mcp');
  const settings = await resolveSettings(line.common, io);
  // Warnings go to stderr and to the clients' logs, which is where the user of an MCP client looks.
  const log = new ClientLog();
  const warn = warningsTo(io);
  await using registry = await createRegistry(settings, undefined, (message) => {
    warn(message);
    log.write('warning', message);
  });
  const reportProblem = (problem: string) => {
    io.stderr.write(`nexus: skill package not loaded: ${problem}\n`);
    log.write('error', `skill package not loaded: ${problem}`);
  };
  for (const problem of await skillPackageProblems(settings, reportProblem)) reportProblem(problem);
  const toolCount = registry.getDefinitionsForPermissions(permissionsOf(settings)).length;

  if (!line.http) {
    const served = await serveStdio(registry, { ...SERVER_OPTIONS, log, stdin: io.stdin, stdout: io.stdout });
    io.stderr.write(`nexus: serving MCP over stdio (${describe(settings, toolCount)})\n`);
    await Promise.race([served.closed, io.interrupted]);
    await served.close();
    return 0;
  }

  const host = line.host ?? settings.http.host ?? '127.0.0.1';
  const port = parsePort(line.port, 'the --http port') ?? settings.http.port ?? 0;
  const token = io.env.NEXUS_MCP_TOKEN || undefined;
  const stateKey = stateKeyOf(io.env.NEXUS_MCP_STATE_KEY, settings);
  const people = settings.auth?.users ? personRegistries(settings, registry) : undefined;
  const served = await serveHttp(registry, {
    ...SERVER_OPTIONS,
    log,
    host,
    port,
    ...(token ? { token } : {}),
    ...(stateKey ? { stateKey } : {}),
    ...(settings.auth ? { auth: settings.auth } : {}),
    ...(people ? { registryFor: people.registryFor } : {}),
    ...(settings.http.allowedHosts ? { allowedHosts: settings.http.allowedHosts } : {}),
    ...(settings.http.allowedOrigins ? { allowedOrigins: settings.http.allowedOrigins } : {}),
    ...(settings.http.sessionIdleMinutes ? { sessionIdleTimeoutMs: settings.http.sessionIdleMinutes * 60_000 } : {}),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE')
      throw new UsageError(`Port ${port} on ${host} is already in use; pick another with --http <port>, or --http 0 for any free one.`);
    if (error.code === 'EADDRNOTAVAIL') throw new UsageError(`Cannot listen on ${host}: no such address on this machine.`);
    throw error;
  });
  if (!LOOPBACK.test(host)) {
    io.stderr.write(
      `nexus: warning: listening on ${host}, reachable from other machines; the token is all that protects it. Clients must use a host name listed in http.allowedHosts.\n`,
    );
  }
  io.stdout.write(
    [
      `Nexus MCP server (Streamable HTTP): ${describe(settings, toolCount)}`,
      `URL:   ${served.url}`,
      `Token: ${token ? '(from NEXUS_MCP_TOKEN)' : served.token}`,
      'Clients send the token as "Authorization: Bearer <token>". Ctrl-C stops the server.',
      '',
    ].join('\n'),
  );
  await io.interrupted;
  await served.close();
  people?.close();
  return 0;
}

/**
 * `nexus mcp`: serves the tools over stdio until the client closes stdin, or with `--http` over
 * Streamable HTTP until interrupted, to clients of both MCP revisions. Confirmations go to the
 * client: `input_required` to a 2026-07-28 client, elicitation to a 2025-era one.
 */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: [{ usage: 'mcp', text: 'Serve the tools over MCP: stdio, or --http [port]' }],
  options: OPTIONS,
  help: ({ cliPath }) => `Usage: nexus mcp [options]

Serve the tools over the Model Context Protocol. By default over stdio, for MCP
clients that start the server themselves. Add to the client's configuration
(Claude Desktop, Claude Code, Cursor …):
  { "mcpServers": { "nexus": { "command": "node", "args": [${JSON.stringify(cliPath)}, "mcp", "--cwd", "/path/to/project"] } } }

With --http, serve Streamable HTTP on 127.0.0.1 instead and print the URL and the
bearer token clients must send ("Authorization: Bearer <token>"). The token comes
from NEXUS_MCP_TOKEN when set (at least 16 characters), else it is random.
2026-07-28 clients need no session: several processes with the same token and
the same state key (NEXUS_MCP_STATE_KEY, else the user config's mcp.stateKey, at
least 32 bytes; random per process when neither is set) can stand behind one
round-robin load balancer, a confirmation's answer reaching any of them.

Options
  --http [port]      Serve Streamable HTTP (default port: the config's http.port, else any free port)
  --host <address>   Address to listen on with --http (default 127.0.0.1)

${COMMON}

${PERMISSIONS}`,
  run,
});
