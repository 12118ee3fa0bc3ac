import { type AgentPermissions, ServiceContainer, type SkillFamily, type ToolResult } from '@nexus/core';
import type { AgentServerConnection } from '@nexus/core/agent-server';
import { type CallerIdentity, SkillRegistry } from '@nexus/registry';
import { decideGrant, type PermissionBase, permissionsOf } from './child-permissions.js';
import type { MethodParams } from './rpc-params.js';

/** What a {@link ToolPlayground} builds its registries from: the pool's families, base and services. */
export interface ToolPlaygroundOptions {
  readonly families: readonly SkillFamily[];
  readonly base: PermissionBase;
  readonly services?: () => ServiceContainer;
  /** The server the agent-control tools (`nexus_*`) act on, as the token holder. */
  readonly agentServer: AgentServerConnection;
}

interface PresetRegistry {
  readonly registry: SkillRegistry;
  readonly permissions: AgentPermissions;
}

/**
 * The tools playground's methods (`list_tools`, `run_tool`; docs/console.md): the tools a preset
 * enables for an agent the token holder would create (the server's cwd, no write paths), and a call
 * of one through that registry's `execute` — the same policy and pipeline, no model involved; the
 * agent-control tools act on this server as the token holder (who is asking). One
 * registry per preset, made on first use and closed with {@link close}.
 */
export class ToolPlayground {
  readonly #options: ToolPlaygroundOptions;
  readonly #registries = new Map<string, Promise<PresetRegistry>>();

  constructor(options: ToolPlaygroundOptions) {
    this.#options = options;
  }

  #registryFor(preset: MethodParams<'list_tools'>['preset'] = 'sandboxed'): Promise<PresetRegistry> {
    let made = this.#registries.get(preset);
    if (!made) {
      made = (async () => {
        const { families, base, services = () => new ServiceContainer(), agentServer } = this.#options;
        const permissions = permissionsOf(await decideGrant({ preset }, undefined, base), base);
        const registry = new SkillRegistry(
          services().register('cwd', permissions.cwd).register('permissions', permissions).register('agentServer', agentServer),
        );
        return { registry: registry.use(...families), permissions };
      })();
      // A refusal (yolo) is not kept: it is the request's, not the preset's.
      made.catch(() => this.#registries.delete(preset));
      this.#registries.set(preset, made);
    }
    return made;
  }

  /** `list_tools`: the enabled tools' names, descriptions and JSON Schemas. */
  async list(params: MethodParams<'list_tools'>): Promise<{ tools: Array<{ name: string; description: string; parameters: unknown }> }> {
    const { registry, permissions } = await this.#registryFor(params.preset);
    const definitions = registry.getDefinitionsForPermissions(permissions, { format: 'openai' });
    return { tools: definitions.map(({ function: { name, description, parameters } }) => ({ name, description, parameters })) };
  }

  /** `run_tool`: the call's `ToolResult`, refusals and failures included; `caller` names who asked in its audit record. */
  async run(params: MethodParams<'run_tool'>, caller?: CallerIdentity): Promise<ToolResult> {
    const { registry } = await this.#registryFor(params.preset);
    return registry.execute(params.name, params.arguments ?? {}, caller ? { caller } : {});
  }

  /** Closes the registries (the shared families forget them). */
  async close(): Promise<void> {
    const made = await Promise.allSettled(this.#registries.values());
    for (const outcome of made) if (outcome.status === 'fulfilled') outcome.value.registry.close();
    this.#registries.clear();
  }
}
