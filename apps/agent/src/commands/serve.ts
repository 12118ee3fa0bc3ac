import { DEFAULT_AGENT_SERVER_PORT } from '@nexus/core/agent-server';
import { buildServices } from '../build-services.js';
import { type CommandLine, expectNoArguments, parsePort } from '../command-line.js';
import { openFamilies } from '../create-registry.js';
import type { FamilyName } from '../families.js';
import { type Io, warningsTo } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';

/**
 * `nexus serve [--port N]`: the agent server (specs/agent-server.md) on 127.0.0.1 until Ctrl-C or
 * `shutdown_server`. Its agents get the enabled families, the agent-control skills, which reach
 * the pool in-process, and the tools of the configured MCP servers (started once, shared by every
 * agent, ended with the server, as the skill library is closed); each agent's permissions follow
 * the rules of the spec.
 */
export async function serveCommand(line: CommandLine, io: Io): Promise<number> {
  expectNoArguments(line);
  const settings = await resolveSettings(line.common, io);
  const { AgentPool, serveAgents } = await import('@nexus/agents');
  const names: FamilyName[] = settings.families.includes('agents') ? settings.families : [...settings.families, 'agents'];
  await using opened = await openFamilies(settings, names, warningsTo(io));
  const pool = new AgentPool({
    settings: settings.llm,
    families: opened.families,
    cwd: settings.cwd,
    env: io.env,
    blockedPaths: settings.block,
    tools: settings.tools,
    services: () => buildServices(settings),
  });
  const server = await serveAgents(pool, {
    port: parsePort(line.port, '--port') ?? settings.servePort ?? DEFAULT_AGENT_SERVER_PORT,
    env: io.env,
  });
  io.stdout.write(`URL: ${server.url}\nToken: ${server.tokenFile ? `in ${server.tokenFile}` : 'NEXUS_API_KEY'}\n`);
  io.stderr.write(`nexus serve: agents for ${settings.cwd} (Ctrl-C to stop)\n`);
  await Promise.race([server.closed, io.interrupted]);
  await server.close();
  return 0;
}
