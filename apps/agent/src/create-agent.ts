import type { Agent } from '@nexus/agents';
import type { ConfirmFunction } from '@nexus/core';
import type { CommandLine } from './command-line.js';
import { createRegistry } from './create-registry.js';
import { type Io, warningsTo } from './io.js';
import { resolveSettings, type Settings } from './resolve-settings.js';

function defaultSystemPrompt(settings: Settings): string {
  return [
    `You are Nexus, a careful assistant working in the directory ${settings.cwd} with the "${settings.preset}" permission level.`,
    'Use your tools to look things up and to act instead of guessing; paths are relative to that directory.',
    'When a tool refuses or fails, read why and adapt; do not repeat a refused call unchanged. Answer concisely.',
  ].join(' ');
}

/** An agent of one command, holding what its registry started (MCP servers): dispose of it (`await using`) to end them. */
export interface CommandAgent extends AsyncDisposable {
  readonly agent: Agent;
}

/**
 * The agent of `nexus run` and `nexus chat`: the model alias chosen with `--model` (else the
 * config's `defaultModel`), the tools the settings enable, and the config's `agent` defaults.
 * Throws a `ConfigError` (exit status 2) for an unknown alias or an unset key variable.
 */
export async function createAgent(line: CommandLine, io: Io, confirm?: ConfirmFunction): Promise<CommandAgent> {
  const settings = await resolveSettings(line.common, io);
  const { Agent, resolveModel } = await import('@nexus/agents');
  const model = resolveModel(settings.llm, line.model, io.env);
  const registry = await createRegistry(settings, confirm, warningsTo(io));
  const { systemPrompt = defaultSystemPrompt(settings), maxToolIterations, toolTimeoutSeconds, compactAt } = settings.llm.agent ?? {};
  try {
    const agent = new Agent({
      model,
      registry,
      systemPrompt,
      ...(maxToolIterations ? { maxToolIterations } : {}),
      ...(toolTimeoutSeconds ? { toolTimeoutMs: toolTimeoutSeconds * 1000 } : {}),
      ...(compactAt ? { compactAt } : {}),
    });
    return { agent, [Symbol.asyncDispose]: () => registry[Symbol.asyncDispose]() };
  } catch (error) {
    await registry[Symbol.asyncDispose]();
    throw error;
  }
}
