import { ConfigError, PermissionDeniedError } from './errors.js';
import { isWithin, normalizePath } from './paths.js';
import { canonicalJson } from './policy-digest.js';
import type { SkillMetadata } from './skill.js';
import type { ToolRule } from './tool-rules.js';
import { findScopeRefusal, type ToolScope } from './tool-scope.js';

/** How much an agent may do, from least to most. */
export type PermissionLevel = 'sandboxed' | 'trusted' | 'yolo';

/** The permission levels, ordered from least to most powerful. */
export const PERMISSION_LEVELS: readonly PermissionLevel[] = ['sandboxed', 'trusted', 'yolo'];

/** The built-in presets; each is named after the level it grants. */
export type PresetName = PermissionLevel;

/** Per-tool overrides of the agent-wide policy. */
export interface ToolPermission {
  /** A disabled tool is neither offered to the LLM nor run. */
  enabled: boolean;
  /** Roots this tool may touch; `undefined` falls back to the agent's paths, `null` means anywhere not blocked. */
  allowedPaths?: string[] | null;
  /** Ask the `confirm` service before every call of this tool. */
  requiresConfirmation?: boolean;
}

/** The resolved permission policy of one agent. */
export interface AgentPermissions {
  /** Preset this policy was built from. */
  preset: PresetName;
  level: PermissionLevel;
  /** Absolute working directory; relative paths resolve against it. */
  cwd: string;
  /** Roots the agent may read; `null` means anywhere not blocked. */
  allowedPaths: string[] | null;
  /**
   * Roots the agent may write without asking; `null` means anywhere not blocked. Outside them a
   * write is refused, or, when `confirmWritesOutside` is set, allowed once the user confirms.
   */
  writePaths: string[] | null;
  /** Writes outside `writePaths` (but inside `allowedPaths`) ask the `confirm` service instead of failing. */
  confirmWritesOutside: boolean;
  /** Never accessible, at any level. */
  blockedPaths: string[];
  /** Per-tool overrides, by tool name. */
  tools: Record<string, ToolPermission>;
  /**
   * When set, the agent runs only tools marked `readOnly`, besides those named in `except`. Decided
   * from each tool's own metadata whenever it is listed or called, so it also holds for a tool
   * that a changing family adds later.
   */
  readOnly?: { except: string[] };
  /** While the agent follows a skill's instructions, the tools it allows (the `toolScope` service, joined by `ServiceContainer.getPermissions()`); every other tool is refused. */
  toolScope?: ToolScope;
  /**
   * Ordered rules on tools and their arguments, decided in the registry's pipeline: the first that
   * matches a call allows, asks or denies it; none matching leaves the call to the rest of the
   * policy. A rule never widens the policy — `allow` only ends the search.
   */
  rules?: ToolRule[];
}

/** What the permission rule reads of a tool: its minimum level and whether it changes nothing. */
export type ToolTraits = Pick<SkillMetadata, 'minimumLevel' | 'readOnly'>;

/** Options of {@link resolvePreset}. */
export interface PresetOptions {
  /** Working directory, the sandbox root of `sandboxed` and the write root of `trusted`. */
  cwd: string;
  /** Extra roots added to the preset's read and write roots. */
  allowedPaths?: readonly string[];
  /** Paths refused at every level. */
  blockedPaths?: readonly string[];
  /** Per-tool overrides. */
  tools?: Record<string, Partial<ToolPermission>>;
  /** Ordered rules on tools and their arguments (see {@link AgentPermissions.rules}). */
  rules?: readonly ToolRule[];
}

/** Whether `level` grants at least as much as `minimum`. */
export function levelAtLeast(level: PermissionLevel, minimum: PermissionLevel): boolean {
  return PERMISSION_LEVELS.indexOf(level) >= PERMISSION_LEVELS.indexOf(minimum);
}

/** Type guard for a permission level or preset name. */
export function isPermissionLevel(value: unknown): value is PermissionLevel {
  return typeof value === 'string' && (PERMISSION_LEVELS as readonly string[]).includes(value);
}

/**
 * Builds the permissions of a preset (see the table in DESIGN.md):
 * - `sandboxed`: read and write inside `cwd` only; command execution and network skills off.
 * - `trusted`: read anywhere not blocked; write inside `cwd`, elsewhere only once confirmed.
 * - `yolo`: anywhere not blocked, never asks.
 */
export function resolvePreset(name: PresetName, options: PresetOptions): AgentPermissions {
  if (!isPermissionLevel(name)) {
    throw new ConfigError(`Unknown preset "${String(name)}". Expected one of: ${PERMISSION_LEVELS.join(', ')}.`);
  }
  if (typeof options?.cwd !== 'string' || options.cwd === '') {
    throw new ConfigError('Expected `cwd` to be a non-empty path.');
  }
  const cwd = normalizePath(options.cwd);
  const roots = [cwd, ...(options.allowedPaths ?? []).map((path) => normalizePath(path, cwd))];
  const tools: Record<string, ToolPermission> = {};
  for (const [tool, override] of Object.entries(options.tools ?? {})) tools[tool] = { enabled: true, ...override };
  return {
    preset: name,
    level: name,
    cwd,
    allowedPaths: name === 'sandboxed' ? roots : null,
    writePaths: name === 'yolo' ? null : roots,
    confirmWritesOutside: name === 'trusted',
    blockedPaths: (options.blockedPaths ?? []).map((path) => normalizePath(path, cwd)),
    tools,
    ...(options.rules?.length ? { rules: options.rules.map((rule) => ({ ...rule })) } : {}),
  };
}

/** What a path is being used for. */
export type PathAccess = 'read' | 'write';

/**
 * The roots a tool may use for reading or writing (seed 000 §Per-Tool Path Resolution): the
 * tool's own `allowedPaths` when set, otherwise the agent's read or write roots. `null` means
 * anywhere not blocked.
 */
export function resolveToolAllowedPaths(permissions: AgentPermissions, tool: string, access: PathAccess = 'read'): string[] | null {
  const own = permissions.tools[tool]?.allowedPaths;
  if (own !== undefined) return own;
  return access === 'write' ? permissions.writePaths : permissions.allowedPaths;
}

/**
 * Why `tool` may not run under `permissions`, or `undefined` when it may: switched off by its
 * per-tool entry, below its minimum level, not read-only where the policy allows only read-only
 * tools, or outside the tool scope of the skill the agent follows. `traits` is the tool's metadata (a `SkillSpec` will do), or just its minimum level.
 * Without a policy the level is `sandboxed`. The one statement of this rule: the registry's gate,
 * definition filtering and `defineSkill` all use it.
 */
export function findToolRefusal(
  permissions: AgentPermissions | undefined,
  tool: string,
  traits: PermissionLevel | ToolTraits = {},
): string | undefined {
  const { minimumLevel = 'sandboxed', readOnly = false } = typeof traits === 'string' ? { minimumLevel: traits } : traits;
  if (permissions?.tools[tool]?.enabled === false) return `Tool "${tool}" is disabled by this agent's permissions.`;
  const level = permissions?.level ?? 'sandboxed';
  if (!levelAtLeast(level, minimumLevel)) {
    const agent = permissions ? `this agent is "${level}"` : 'no permission policy is registered, which counts as "sandboxed"';
    return `Tool "${tool}" needs the "${minimumLevel}" permission level or higher; ${agent}.`;
  }
  if (permissions?.readOnly && !readOnly && !permissions.readOnly.except.includes(tool))
    return `Tool "${tool}" is not read-only, and this agent may run only read-only tools.`;
  return findScopeRefusal(permissions?.toolScope, tool);
}

/** Whether a tool is switched on in this policy (by its per-tool entry, its minimum level and whether it is read-only). */
export function isToolEnabled(permissions: AgentPermissions, tool: string, traits: PermissionLevel | ToolTraits = {}): boolean {
  return findToolRefusal(permissions, tool, traits) === undefined;
}

function rootsWithin(child: readonly string[] | null, parent: readonly string[] | null): boolean {
  if (parent === null) return true;
  if (child === null) return false;
  return child.every((path) => parent.some((root) => isWithin(path, root)));
}

/**
 * Lists how `child` would exceed `parent` (the ceiling rule: a child agent never gets more than
 * the agent that created it). An empty list means the child fits.
 */
export function findCeilingViolations(parent: AgentPermissions, child: AgentPermissions): string[] {
  const violations: string[] = [];
  if (!levelAtLeast(parent.level, child.level)) violations.push(`level "${child.level}" exceeds the parent's "${parent.level}"`);
  if (!rootsWithin(child.allowedPaths, parent.allowedPaths)) violations.push("allowedPaths reach outside the parent's");
  if (!rootsWithin(child.writePaths, parent.writePaths)) violations.push("writePaths reach outside the parent's");
  if (parent.readOnly && !child.readOnly?.except.every((tool) => parent.readOnly?.except.includes(tool)))
    violations.push('the child may run tools that are not read-only, which the parent may not');
  if (child.confirmWritesOutside && !parent.confirmWritesOutside && parent.writePaths !== null) {
    violations.push('writes outside writePaths are confirmable for the child but not for the parent');
  }
  // A child's rule placed before its parent's could end the search before the parent's `deny`.
  const parentRules = parent.rules ?? [];
  if (parentRules.some((rule, index) => canonicalJson(rule) !== canonicalJson(child.rules?.[index])))
    violations.push("rules do not begin with the parent's rules");
  for (const blocked of parent.blockedPaths) {
    if (!child.blockedPaths.some((path) => isWithin(blocked, path)))
      violations.push(`blocked path "${blocked}" is not blocked for the child`);
  }
  for (const tool of new Set([...Object.keys(parent.tools), ...Object.keys(child.tools)])) {
    const own = child.tools[tool];
    if (parent.tools[tool]?.enabled === false && own?.enabled !== false) violations.push(`tool "${tool}" is disabled for the parent`);
    if (parent.tools[tool]?.requiresConfirmation && !own?.requiresConfirmation)
      violations.push(`tool "${tool}" requires confirmation for the parent`);
    for (const access of ['read', 'write'] as const) {
      if (!rootsWithin(resolveToolAllowedPaths(child, tool, access), resolveToolAllowedPaths(parent, tool, access))) {
        violations.push(`tool "${tool}" reaches outside the parent's ${access} paths`);
      }
    }
  }
  return violations;
}

/** Throws a {@link PermissionDeniedError} listing every way `child` exceeds `parent`. */
export function assertWithinCeiling(parent: AgentPermissions, child: AgentPermissions): void {
  const violations = findCeilingViolations(parent, child);
  if (violations.length > 0) {
    throw new PermissionDeniedError(`Child permissions exceed the parent's: ${violations.join('; ')}.`);
  }
}
