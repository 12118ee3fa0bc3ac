import { ClientLog, type McpServerOptions, serveHttp, serveStdio } from '@nexus/mcp';
import packageJson from '../../package.json' with { type: 'json' };
import { permissionsOf } from '../build-services.js';
import { type CommandLine, expectNoArguments, parsePort, UsageError } from '../command-line.js';
import { createRegistry } from '../create-registry.js';
import { skillPackageProblems } from '../families.js';
import { type Io, warningsTo } from '../io.js';
import { resolveSettings, type Settings } from '../resolve-settings.js';

const SERVER_OPTIONS: McpServerOptions = { name: 'nexus', version: packageJson.version };
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

function describe(settings: Settings, toolCount: number): string {
  return `${toolCount} tools, preset ${settings.preset}, working directory ${settings.cwd}`;
}

/**
 * `nexus mcp`: serves the tools over stdio until the client closes stdin, or with `--http` over
 * Streamable HTTP until interrupted. Confirmations go to the client through elicitation.
 */
export async function mcpCommand(line: CommandLine, io: Io): Promise<number> {
  expectNoArguments(line);
  if (!line.http && (line.port !== undefined || line.host !== undefined)) throw new UsageError('--port and --host only apply with --http.');
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
  const served = await serveHttp(registry, {
    ...SERVER_OPTIONS,
    log,
    host,
    port,
    ...(token ? { token } : {}),
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
  return 0;
}
