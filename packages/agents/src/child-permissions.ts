import { stat } from 'node:fs/promises';
import {
  type AgentPermissions,
  findCeilingViolations,
  isWithin,
  levelAtLeast,
  normalizePath,
  type PermissionLevel,
  resolvePreset,
  resolveRealPath,
  type ToolPermission,
  type ToolRule,
} from '@nexus/core';
import { refuse } from './rpc-replies.js';

/** Deepest a chain of agents may go (the token holder's agents are at depth 1). */
export const MAX_AGENT_DEPTH = 5;

/** What an agent's permissions are derived from; kept in its session, so a restore derives the same. */
export interface AgentGrant {
  preset: PermissionLevel;
  cwd: string;
  writePaths: string[];
  disabledTools: string[];
  /** The person (token subject) whose agent it is; absent: the static token holder's. Its children are theirs too. */
  owner?: string;
  /** Paths blocked for its owner on top of the server's (absolute); its children keep them. */
  blockedPaths?: string[];
  /** Its owner's governance rules, decided before the preset; its children keep them. */
  rules?: ToolRule[];
}

/** The parent's side of a creation: its grant, resolved permissions and depth. */
export interface ParentAgent {
  readonly id: string;
  readonly grant: AgentGrant;
  readonly permissions: AgentPermissions;
  readonly depth: number;
}

/** Server-wide settings every agent's permissions start from. */
export interface PermissionBase {
  /** The server's working directory: the base of the token holder's relative `cwd`. */
  readonly cwd: string;
  readonly blockedPaths: readonly string[];
  /** Per-tool settings of the configuration. */
  readonly tools: Record<string, Partial<ToolPermission>>;
}

async function existingDirectory(path: string, what: string): Promise<string> {
  const real = await resolveRealPath(path).catch(() => undefined);
  const info = real === undefined ? undefined : await stat(real).catch(() => undefined);
  if (real === undefined || !info?.isDirectory()) throw refuse(`${what} "${path}" is not an existing directory.`);
  return real;
}

function within(path: string, roots: readonly string[] | null): boolean {
  return roots === null || roots.some((root) => isWithin(path, root));
}

/** How a read-only agent answers its parent: agent control reaches the pool, never the files. */
const READ_ONLY_AGENT_TOOLS: readonly string[] = ['nexus_send'];

/**
 * The permissions a grant gives: the preset over `cwd`, the write paths as the only write roots
 * when given, the disabled tools off, and — for a sandboxed agent without write paths — a
 * read-only policy: the registry refuses (and does not list) every tool not marked `readOnly`,
 * deciding by each tool's metadata when it is listed or called, so tools a changing family adds
 * later are covered (agent control stays: `nexus_send` is how it answers its parent).
 */
export function permissionsOf(grant: AgentGrant, base: PermissionBase): AgentPermissions {
  const tools: Record<string, Partial<ToolPermission>> = { ...base.tools };
  for (const name of grant.disabledTools) tools[name] = { ...tools[name], enabled: false };
  const blockedPaths = [...base.blockedPaths, ...(grant.blockedPaths ?? [])];
  const permissions = resolvePreset(grant.preset, { cwd: grant.cwd, blockedPaths, tools, ...(grant.rules ? { rules: grant.rules } : {}) });
  if (grant.writePaths.length > 0) return { ...permissions, writePaths: grant.writePaths };
  return grant.preset === 'sandboxed' ? { ...permissions, readOnly: { except: [...READ_ONLY_AGENT_TOOLS] } } : permissions;
}

/** What a `create_agent` request asks for. */
export interface GrantRequest {
  preset?: PermissionLevel;
  cwd?: string;
  allowedWritePaths?: readonly string[];
  disableTools?: readonly string[];
  /** The person asking (not an agent): the agent is theirs, within their preset ceiling and blocked paths. */
  person?: {
    readonly subject: string;
    readonly ceiling?: PermissionLevel;
    readonly blockedPaths?: readonly string[];
    readonly rules?: readonly ToolRule[];
  };
}

/**
 * Decides a new agent's grant by the rules of specs/agent-server.md §5, reading the parent's
 * permissions from the live parent (never from the request): its level strictly below the
 * parent's (the token holder may create `trusted` and `sandboxed`), depth at most
 * {@link MAX_AGENT_DEPTH}, its cwd inside what the parent may read, its write paths inside its
 * sandbox root and what the parent may write, the parent's disabled tools still disabled, and the
 * result within the parent's ceiling. Refusals are `-32602` errors saying why.
 */
export async function decideGrant(request: GrantRequest, parent: ParentAgent | undefined, base: PermissionBase): Promise<AgentGrant> {
  const { person } = request;
  const preset = request.preset ?? 'sandboxed';
  if (person?.ceiling && preset !== person.ceiling && levelAtLeast(preset, person.ceiling))
    throw refuse(`"${person.subject}" may create agents up to "${person.ceiling}", got "${preset}".`);
  if (parent === undefined) {
    if (preset === 'yolo') throw refuse('A yolo agent cannot be created over RPC; use "trusted" or "sandboxed".');
  } else {
    const level = parent.permissions.level;
    if (level === 'sandboxed') throw refuse(`Agent "${parent.id}" is sandboxed and may not create agents.`);
    if (levelAtLeast(preset, level))
      throw refuse(`A child of "${parent.id}" (${level}) must have a lower level than ${level}, got "${preset}".`);
    if (parent.depth + 1 > MAX_AGENT_DEPTH) throw refuse(`Agents may be nested at most ${MAX_AGENT_DEPTH} deep.`);
  }
  const parentCwd = parent?.grant.cwd ?? base.cwd;
  const cwd = await existingDirectory(normalizePath(request.cwd ?? '.', parentCwd), 'cwd');
  if (parent && !within(cwd, parent.permissions.allowedPaths)) throw refuse(`cwd "${cwd}" is outside what "${parent.id}" may read.`);
  const writePaths: string[] = [];
  for (const path of request.allowedWritePaths ?? []) {
    const absolute = normalizePath(path, cwd);
    const real = (await resolveRealPath(absolute).catch(() => undefined)) ?? absolute;
    if (preset === 'sandboxed' && !isWithin(real, cwd)) throw refuse(`Write path "${path}" is outside the agent's sandbox root ${cwd}.`);
    if (parent && !within(real, parent.permissions.writePaths))
      throw refuse(`Write path "${path}" is outside what "${parent.id}" may write.`);
    writePaths.push(real);
  }
  const disabledTools = [...new Set([...(parent?.grant.disabledTools ?? []), ...(request.disableTools ?? [])])].sort();
  const owner = parent ? parent.grant.owner : person?.subject;
  const blockedPaths = parent ? parent.grant.blockedPaths : person?.blockedPaths?.map((path) => normalizePath(path, base.cwd));
  const rules = parent ? parent.grant.rules : person?.rules && [...person.rules];
  const grant: AgentGrant = {
    preset,
    cwd,
    writePaths,
    disabledTools,
    ...(owner === undefined ? {} : { owner }),
    ...(blockedPaths?.length ? { blockedPaths } : {}),
    ...(rules?.length ? { rules } : {}),
  };
  if (parent) {
    const violations = findCeilingViolations(parent.permissions, permissionsOf(grant, base));
    if (violations.length > 0) throw refuse(`The child would exceed "${parent.id}": ${violations.join('; ')}.`);
  }
  return grant;
}
