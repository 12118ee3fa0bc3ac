import type { FamilyDocuments } from './family-documents.js';
import type { JsonSchemaObject } from './json.js';
import { findToolRefusal, type PermissionLevel } from './permissions.js';
import type { ConfirmFunction, ServiceContainer } from './service-container.js';
import { ToolResult } from './tool-result.js';

/** Progress of a long-running skill, forwarded to MCP progress notifications and CLIs. */
export interface SkillProgress {
  message?: string;
  current?: number;
  total?: number;
}

/** Per-call context handed to a skill. */
export interface SkillContext {
  /** Aborted when the client goes away, the agent is cancelled, or the time limit passes. */
  signal?: AbortSignal;
  /** Report progress on long work. */
  onProgress?(progress: SkillProgress): void;
  /**
   * Who to ask for approval during this call (an MCP client through elicitation, a terminal, an
   * agent's parent). Skills ask through `services.confirm(request, context.confirm)`, which falls
   * back to the `confirm` service. The registry sets it to the caller's (else the service's),
   * remembering approvals for the call (`confirmOncePerCall`).
   */
  confirm?: ConfirmFunction;
  /**
   * Pushes the call's time limit back so it is not stopped before `ms` from now — for work that
   * shows it is alive (a remote server's progress). Never shortens the limit; the caller's
   * `maxTotalMs` caps it. Absent where nothing limits the call (a skill called directly).
   */
  extendDeadline?(ms: number): void;
}

/** A tool an LLM can call. `execute` never throws; every outcome is a {@link ToolResult}. */
export interface Skill {
  /** Tool name, `/^[A-Za-z0-9_-]{1,64}$/`, unique in a registry. */
  readonly name: string;
  /** What the tool does, written for an LLM. */
  readonly description: string;
  /** JSON Schema of the arguments: the wire contract. */
  readonly parameters: JsonSchemaObject;
  execute(args: Record<string, unknown>, context?: SkillContext): Promise<ToolResult>;
}

/** Builds a skill from the services of one agent. Called lazily, at most once per registry. */
export type SkillFactory = (services: ServiceContainer) => Skill;

/** What is known about a skill without instantiating it. */
export interface SkillMetadata {
  description: string;
  parameters: JsonSchemaObject;
  /** Changes nothing (MCP `readOnlyHint`). */
  readOnly?: boolean;
  /** May destroy or overwrite data (MCP `destructiveHint`). */
  destructive?: boolean;
  /** A name for people, e.g. `File info` (MCP `title`); the tool's name when absent. */
  title?: string;
  /**
   * Calling it again with the same arguments changes nothing more (MCP `idempotentHint`): reads,
   * and writes such as `mkdir`. Declared only where true.
   */
  idempotent?: boolean;
  /**
   * Reaches beyond the agent's machine — a GitLab instance, an imported MCP server (MCP
   * `openWorldHint`). Declared only where true.
   */
  openWorld?: boolean;
  /**
   * JSON Schema (an object root) of the `data` of every successful result: declared, the tool is
   * listed with it as MCP `outputSchema` and `nexus mcp` returns that `data` as
   * `structuredContent`, the text output staying for clients that ignore it.
   */
  outputSchema?: JsonSchemaObject;
  /**
   * Lowest permission level at which the skill is offered and runs (default `sandboxed`); the exec
   * and GitLab families use `trusted`. Enforced by the registry's gate for its calls, and by every
   * skill made with {@link defineSkill} for calls that bypass the registry — families never
   * re-state it.
   */
  minimumLevel?: PermissionLevel;
  /**
   * A SHA-256 of the skill package the skill comes from, for package tools: an approval given for
   * a call is stale once the package it was asked about has changed.
   */
  packageDigest?: string;
}

/** A skill's metadata plus its factory: the unit a {@link SkillFamily} is made of. */
export interface SkillSpec extends SkillMetadata {
  name: string;
  factory: SkillFactory;
}

/** A named group of skills a registry can `use`, e.g. `fsSkills`. Plain data. */
export interface SkillFamily {
  readonly name: string;
  readonly skills: readonly SkillSpec[];
  /** Instructions and files it offers besides its tools (skill packages' instructions, references and assets). */
  readonly documents?: FamilyDocuments;
}

/** The body of a skill defined with {@link defineSkill}. */
export type SkillHandler<Args> = (args: Args, context: SkillContext) => Promise<ToolResult> | ToolResult;

/** What {@link defineSkill} takes: metadata, a name, and how to build the handler from services. */
export interface SkillDefinition<Args> extends SkillMetadata {
  name: string;
  create(services: ServiceContainer): SkillHandler<Args>;
}

/**
 * Defines a skill once, as a {@link SkillSpec}: the metadata is written a single time and shared
 * by the spec and every instance; a call below the skill's `minimumLevel` is refused (`forbidden`)
 * before the handler runs, however the skill was registered or called; and anything the handler
 * throws becomes a failed {@link ToolResult} (with the kind, `recoverable` and `data` of a
 * `NexusError`), so the skill keeps the never-throw promise.
 * `Args` is the shape the registry's validation guarantees; callers that bypass the registry
 * must pass valid arguments.
 */
export function defineSkill<Args = Record<string, unknown>>(definition: SkillDefinition<Args>): SkillSpec {
  const { create, ...spec } = definition;
  return {
    ...spec,
    factory(services) {
      const handler = create(services);
      const { minimumLevel = 'sandboxed' } = spec;
      return {
        name: spec.name,
        description: spec.description,
        parameters: spec.parameters,
        async execute(args, context = {}) {
          if (minimumLevel !== 'sandboxed') {
            const refusal = findToolRefusal(services.getPermissions(), spec.name, minimumLevel);
            if (refusal) return ToolResult.fail(refusal, 'forbidden');
          }
          try {
            const result = await handler(args as Args, context);
            return ToolResult.isInstance(result) ? result : ToolResult.fail(`${spec.name} returned no ToolResult.`);
          } catch (error) {
            return ToolResult.fromError(error);
          }
        },
      };
    },
  };
}
