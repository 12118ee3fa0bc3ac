import { type AgentPermissions, ServiceContainer, type SkillFamily } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { Agent, type AgentOptions } from './agent.js';
import type { AgentSettings } from './agent-settings.js';
import { type ResolvedModel, resolveModel } from './resolve-model.js';

/**
 * What {@link assembleAgent} builds an agent from; `messages` (the conversation so far),
 * `rememberedApprovals`, `onCheckpoint`, `journal` and `caller` go to the agent as they are.
 */
export interface AgentAssembly extends Pick<AgentOptions, 'messages' | 'rememberedApprovals' | 'onCheckpoint' | 'journal' | 'caller'> {
  /** Providers, models, the default model and the `agent` defaults (turn limit, tool time limit, compaction, system prompt). */
  settings: AgentSettings;
  /** The model: an alias of the settings (default: their `defaultModel`), or one already resolved (`resolveModel`). */
  model?: string | ResolvedModel;
  /** Where API keys are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The skill families of the agent's registry. */
  families: readonly SkillFamily[];
  /** The agent's permission policy; its `cwd` is the agent's working directory. */
  permissions: AgentPermissions;
  /** The agent's own service container (exec settings, GitLab instances, a confirmer, …); the working directory and permissions are added to it. */
  services?: ServiceContainer;
  /** The system prompt (default: the settings' one, else the default prompt naming the working directory and level). */
  systemPrompt?: string;
}

function defaultSystemPrompt({ cwd, level }: AgentPermissions): string {
  return [
    `You are Nexus, a careful assistant working in the directory ${cwd} with the "${level}" permission level.`,
    'Use your tools to look things up and to act instead of guessing; paths are relative to that directory.',
    'When a tool refuses or fails, read why and adapt; do not repeat a refused call unchanged. Answer concisely.',
  ].join(' ');
}

/**
 * Turns settings, skill families and a permission policy into an agent: the model the alias names,
 * a registry over the families whose services hold the working directory and the policy, the
 * settings' `agent` defaults and one default system prompt — the one place `nexus run`, `nexus chat`
 * and the agent pool build agents. Throws a `ConfigError` for an unknown alias or an unset key
 * variable; when the families cannot be used together, the registry is closed before the error is
 * thrown (no changing family keeps following it). Closing `agent.registry` lets go of the families.
 */
export function assembleAgent(assembly: AgentAssembly): Agent {
  const {
    settings,
    model: modelOrAlias,
    env,
    families,
    permissions,
    services = new ServiceContainer(),
    systemPrompt,
    ...restored
  } = assembly;
  const model = typeof modelOrAlias === 'object' ? modelOrAlias : resolveModel(settings, modelOrAlias, env);
  const registry = new SkillRegistry(services.register('cwd', permissions.cwd).register('permissions', permissions));
  const defaults = settings.agent ?? {};
  try {
    return new Agent({
      model,
      registry: registry.use(...families),
      systemPrompt: systemPrompt ?? defaults.systemPrompt ?? defaultSystemPrompt(permissions),
      ...restored,
      ...(defaults.maxToolIterations ? { maxToolIterations: defaults.maxToolIterations } : {}),
      ...(defaults.toolTimeoutSeconds ? { toolTimeoutMs: defaults.toolTimeoutSeconds * 1000 } : {}),
      ...(defaults.compactAt ? { compactAt: defaults.compactAt } : {}),
    });
  } catch (error) {
    // `use` may have followed some changing families before it refused a later one.
    registry.close();
    throw error;
  }
}
