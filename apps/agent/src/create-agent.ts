import type { Agent } from '@nexus/agents';
import type { ConfirmFunction } from '@nexus/core';
import { buildServices, permissionsOf } from './build-services.js';
import type { CommandLine } from './command.js';
import { confirmWithNobodyToAsk } from './confirm-on-terminal.js';
import { openFamilies } from './create-registry.js';
import { type Io, warningsTo } from './io.js';
import { resolveSettings } from './resolve-settings.js';

/** An agent of one command, holding what its families hold open (MCP servers): dispose of it (`await using`) to end them. */
export interface CommandAgent extends AsyncDisposable {
  readonly agent: Agent;
}

/**
 * The agent of `nexus run` and `nexus chat` (`assembleAgent`): the model alias chosen with
 * `--model` (else the config's `defaultModel`), the enabled families and the tools of the configured
 * MCP servers, the settings' permissions and services, and the config's `agent` defaults.
 * Without `confirm`, a call that needs confirmation is refused (nobody can be asked). Throws a
 * `ConfigError` (exit status 2) for an unknown alias or an unset key variable.
 */
export async function createAgent(
  line: CommandLine<{ model: { type: 'string' } }>,
  io: Io,
  confirm?: ConfirmFunction,
): Promise<CommandAgent> {
  const settings = await resolveSettings(line.common, io);
  const { assembleAgent, resolveModel } = await import('@nexus/agents');
  // Resolved first: a bad alias or key variable is reported before any MCP server starts.
  const model = resolveModel(settings.llm, line.model, io.env);
  const opened = await openFamilies(settings, settings.families, warningsTo(io));
  try {
    const agent = assembleAgent({
      settings: settings.llm,
      model,
      families: opened.families,
      permissions: permissionsOf(settings),
      services: buildServices(settings, confirm ?? confirmWithNobodyToAsk),
    });
    // Changing families (skill packages) load their first packages in the background: offer those, not ghosts.
    await agent.registry.refresh();
    return { agent, [Symbol.asyncDispose]: () => opened[Symbol.asyncDispose]() };
  } catch (error) {
    await opened[Symbol.asyncDispose]();
    throw error;
  }
}
