import type { AgentServerConnection } from './agent-server.js';
import { ConfigError } from './errors.js';
import { expectOption } from './options.js';
import type { AgentPermissions, PathAccess, PermissionLevel } from './permissions.js';
import { resolveToolAllowedPaths } from './permissions.js';
import type { ToolScope } from './tool-scope.js';

/** What a skill asks the user to approve. */
export interface ConfirmationRequest {
  /** Tool asking. */
  tool: string;
  /** One line saying what will happen, e.g. `write /etc/hosts` or `delete branch feature-x`. */
  action: string;
  /** Optional longer detail (a diff, a request body). */
  detail?: string;
  /**
   * The real path the request is about (a write outside the write roots). Approving it, within one
   * call, also approves that call's later requests of the same tool about paths inside it.
   */
  path?: string;
}

/** Asks the user; resolves `true` only when they approved. */
export type ConfirmFunction = (request: ConfirmationRequest) => Promise<boolean> | boolean;

/**
 * The services skills can use, by key. Other packages add keys by declaration merging:
 * ```ts
 * declare module '@nexus/core' { interface Services { gitlab: GitLabSettings } }
 * ```
 */
export interface Services {
  /** Working directory of the agent. */
  cwd: string;
  /** The agent's permission policy. */
  permissions: AgentPermissions;
  /** Sandbox roots used when no `permissions` are registered (`null`: unrestricted). */
  allowedPaths: string[] | null;
  /** Paths refused on top of the policy's blocked paths. */
  blockedPaths: string[];
  /**
   * Roots readable on top of the policy's read roots and never writable through them: the folder
   * of each skill package the agent took, whose references and assets its instructions point to.
   * Added with {@link ServiceContainer.addReadOnlyPath}.
   */
  readOnlyPaths: readonly string[];
  /** While the agent follows a skill's instructions, the tools that skill allows: `getPermissions()` is narrowed to them. */
  toolScope: ToolScope;
  /**
   * Asks the user to approve an action when the call brings no way to ask of its own
   * (`SkillContext.confirm` wins); without either, anything needing approval is refused.
   */
  confirm: ConfirmFunction;
  /** Id of the agent these services belong to. */
  agentId: string;
  /** The agent server the agent-control skills talk to (in-process inside `nexus serve`). */
  agentServer: AgentServerConnection;
}

/** A service key. */
export type ServiceName = keyof Services & string;

/**
 * Dependency injection for skills: one container per agent, holding its working directory,
 * permissions, confirmation callback and whatever else families declare in {@link Services}.
 */
export class ServiceContainer {
  readonly #services = new Map<string, unknown>();
  /** The last narrowed policy, kept while its policy and scope stay registered: the gate reads it at every call. */
  #narrowed: { base: AgentPermissions; scope: ToolScope; policy: AgentPermissions } | undefined;

  /** Registers (or replaces) a service. Returns the container for chaining. */
  register<K extends ServiceName>(name: K, value: Services[K]): this {
    this.#services.set(name, value);
    return this;
  }

  /** The service, or `undefined` when it is not registered. */
  get<K extends ServiceName>(name: K): Services[K] | undefined {
    return this.#services.get(name) as Services[K] | undefined;
  }

  /** The service; throws a {@link ConfigError} when it is not registered. */
  require<K extends ServiceName>(name: K): Services[K] {
    if (!this.#services.has(name)) throw new ConfigError(`Service "${name}" is not registered.`);
    return this.#services.get(name) as Services[K];
  }

  has(name: ServiceName): boolean {
    return this.#services.has(name);
  }

  /** Removes a service and returns what was registered. */
  unregister<K extends ServiceName>(name: K): Services[K] | undefined {
    const value = this.get(name);
    this.#services.delete(name);
    return value;
  }

  clear(): void {
    this.#services.clear();
  }

  /** Names of the registered services. */
  names(): ServiceName[] {
    return [...this.#services.keys()] as ServiceName[];
  }

  /**
   * The agent's permission policy — narrowed, while a `toolScope` is registered (the agent follows
   * a skill that names its tools), to that scope's tools. Without a policy there is nothing to narrow.
   */
  getPermissions(): AgentPermissions | undefined {
    const base = this.get('permissions');
    const scope = this.get('toolScope');
    if (!base || !scope) return base;
    if (this.#narrowed?.base !== base || this.#narrowed.scope !== scope)
      this.#narrowed = { base, scope, policy: { ...base, toolScope: scope } };
    return this.#narrowed.policy;
  }

  getPermissionLevel(): PermissionLevel | undefined {
    return this.getPermissions()?.level;
  }

  /** The `cwd` service, else the policy's cwd, else the process's. */
  getCwd(): string {
    return this.get('cwd') ?? this.getPermissions()?.cwd ?? process.cwd();
  }

  /**
   * Roots a tool may read (or write) — seed 000 §Per-Tool Path Resolution: the tool's own
   * paths, else the policy's; without a policy, the `allowedPaths` service; without either,
   * the working directory only (secure by default). `null` means anywhere not blocked.
   */
  getToolAllowedPaths(tool: string, access: PathAccess = 'read'): string[] | null {
    const permissions = this.getPermissions();
    const allowed = this.get('allowedPaths');
    const roots = permissions ? resolveToolAllowedPaths(permissions, tool, access) : allowed === undefined ? [this.getCwd()] : allowed;
    // The read-only paths widen the agent's read roots only, never a tool's own roots nor any write root.
    const readOnly = this.get('readOnlyPaths');
    if (access === 'write' || roots === null || !readOnly?.length || permissions?.tools[tool]?.allowedPaths !== undefined) return roots;
    return [...roots, ...readOnly];
  }

  /**
   * Makes `path` (absolute; a real path, since symlinks below it are resolved before the check)
   * readable by every tool that reads through the agent's read roots, at every level — never
   * writable through it, blocked paths inside it still refused. Adding a path twice adds it once.
   */
  addReadOnlyPath(path: string): void {
    expectOption(typeof path === 'string' && path.startsWith('/'), 'path', 'an absolute path', path);
    const known = this.get('readOnlyPaths') ?? [];
    if (!known.includes(path)) this.register('readOnlyPaths', [...known, path]);
  }

  /** The policy's blocked paths plus the `blockedPaths` service. */
  getBlockedPaths(): string[] {
    return [...(this.getPermissions()?.blockedPaths ?? []), ...(this.get('blockedPaths') ?? [])];
  }

  /**
   * Asks for approval: always granted at `yolo`; otherwise decided by `confirm` — the caller's way
   * to ask for this call (`SkillContext.confirm`) — else by the `confirm` service; with neither,
   * refused. Skills pass their context's `confirm`: `services.confirm(request, context.confirm)`.
   */
  async confirm(request: ConfirmationRequest, confirm: ConfirmFunction | undefined = this.get('confirm')): Promise<boolean> {
    if (this.getPermissionLevel() === 'yolo') return true;
    return confirm ? (await confirm(request)) === true : false;
  }
}
