import { DEFAULT_AGENT_SERVER_PORT } from '@nexus/core/agent-server';
import { buildServices } from '../build-services.js';
import { type CommandLine, defineCommand, expectNoArguments, parsePort } from '../command.js';
import { openFamilies } from '../create-registry.js';
import { type FamilyName, skillPackageIndexFor } from '../families.js';
import { COMMON } from '../help-sections.js';
import { type Io, warningsTo } from '../io.js';
import { resolveSettings, type Settings } from '../resolve-settings.js';
import { openRuntime, RUNTIME_OPTIONS } from '../serve-runtime.js';

const OPTIONS = { port: { type: 'string' }, 'no-console': { type: 'boolean' }, ...RUNTIME_OPTIONS } as const;

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  expectNoArguments(line);
  const settings = await resolveSettings(line.common, io);
  const { serveAgents } = await import('@nexus/agents');
  const names: FamilyName[] = settings.families.includes('agents') ? settings.families : [...settings.families, 'agents'];
  await using opened = await openFamilies(settings, names, warningsTo(io));
  const pool = await openRuntime(line, {
    settings: settings.llm,
    families: opened.families,
    cwd: settings.cwd,
    env: io.env,
    blockedPaths: settings.block,
    tools: settings.tools,
    services: () => buildServices(settings),
  });
  const consolePage = line['no-console']
    ? undefined
    : { assetsDir: (await import('@nexus/console')).consoleAssetsDir, ...consoleSignIn(settings.auth) };
  const skillPackages = skillPackageIndexFor(settings);
  const server = await serveAgents(pool, {
    port: parsePort(line.port, '--port') ?? settings.servePort ?? DEFAULT_AGENT_SERVER_PORT,
    env: io.env,
    ...(consolePage ? { console: consolePage } : {}),
    ...(settings.auth ? { auth: settings.auth } : {}),
    ...(skillPackages ? { skillPackages } : {}),
  });
  io.stdout.write(`URL: ${server.url}\nToken: ${server.tokenFile ? `in ${server.tokenFile}` : 'NEXUS_API_KEY'}\n`);
  if (server.consoleUrl) io.stdout.write(`Console: ${server.consoleUrl}\n`);
  io.stderr.write(`nexus serve: agents for ${settings.cwd} (Ctrl-C to stop)\n`);
  await Promise.race([server.closed, io.interrupted]);
  await server.close();
  return 0;
}

/** How the console signs in through the issuer (`auth.consoleClientId`): the token it gets is for the server's audience. */
function consoleSignIn(auth: Settings['auth']) {
  if (!auth?.consoleClientId) return {};
  const scope = ['openid', ...(auth.scopes ?? [])].join(' ');
  return { signIn: { issuer: auth.issuer, clientId: auth.consoleClientId, scope, resource: auth.audience } };
}

/**
 * `nexus serve [--port N]`: the agent server (specs/agent-server.md) on 127.0.0.1 until Ctrl-C or
 * `shutdown_server`. Its agents get the enabled families, the agent-control skills, which reach
 * the pool in-process, and the tools of the configured MCP servers (started once, shared by every
 * agent, ended with the server, as the skill library is closed); each agent's permissions follow
 * the rules of the spec.
 */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: [{ usage: 'serve [--port N] [--runtime restate …]', text: 'Run the agent server (JSON-RPC on 127.0.0.1, default port 8765)' }],
  options: OPTIONS,
  help: () => `Usage: nexus serve [--port N] [--no-console] [--runtime restate --restate <URL> --restate-admin <URL>]

Run the agent server: agents that create and command agents, over JSON-RPC 2.0 on
127.0.0.1 (default port 8765, 0 for any free one) until Ctrl-C or shutdown_server.
Every request needs "Authorization: Bearer <token>": NEXUS_API_KEY when set (16+
characters), else a fresh token written to $XDG_STATE_HOME/nexus/rpc-<port>.token
(mode 0600), where \`nexus agents\` and the nexus_* tools find it. Agents get the
enabled families, the agent-control tools and the tools of your mcpServers (started
once, ended with the server); a child agent's permissions stay below its parent's. Sessions are saved after every turn in
$XDG_STATE_HOME/nexus/sessions/ and restored on demand. With "auth" in your config file, the
people of an OpenID Connect issuer call with their own tokens and own the agents
they create (see nexus help config). The console, a web page to
watch agents, answer approvals and try tools, is served at /console/: open the
"Console:" link printed at start (it signs in once), or enter the token there.

Options
  --port <N>         Port to listen on (default 8765)
  --no-console       Serve no console page
  --runtime <name>   local (default: one process, sessions on disk) or restate:
                     agents as Restate virtual objects shared by every worker
  --restate <URL>    The Restate ingress (with --runtime restate)
  --restate-admin <URL>
                     The Restate admin API, where this worker registers
  --restate-port <N> Port this worker serves Restate's calls on (default 9080)
  --restate-host <address>
                     Address it listens on for them (default 127.0.0.1); any
                     other needs --restate-identity-key
  --restate-identity-key <publickeyv1_…>
                     The Restate cluster's request identity public key: only
                     calls it signed are answered (repeatable)
  --restate-deployment <URL>
                     The URL Restate reaches the workers at: one for all of
                     them, a load balancer (default this worker's own)

${COMMON}`,
  run,
});
