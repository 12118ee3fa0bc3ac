import {
  type ConfirmationRequest,
  type ConfirmFunction,
  type JsonSchemaObject,
  type PresetName,
  resolvePreset,
  ServiceContainer,
  type Services,
  type SkillFamily,
  type SkillSpec,
  type ToolPermission,
  type ToolResult,
  type ToolRule,
} from '@nexus/core';
import type { ChangingSkillFamily } from './changing-family.js';
import type { ExecuteOptions } from './execute-pipeline.js';
import { schemaDialectOf } from './schema-dialect.js';
import { SkillRegistry } from './skill-registry.js';

/** Options of {@link createTestAgent}. */
export interface TestAgentOptions {
  /** The agent's working directory (usually a temporary directory of the test). */
  cwd: string;
  /** Permission preset (default `sandboxed`). */
  preset?: PresetName;
  /** Families the registry uses. */
  families?: readonly SkillFamily[];
  /** Per-tool overrides of the preset. */
  tools?: Record<string, Partial<ToolPermission>>;
  /** Extra roots of the preset. */
  allowedPaths?: readonly string[];
  /** Paths refused at every level. */
  blockedPaths?: readonly string[];
  /** Ordered rules on tools and their arguments. */
  rules?: readonly ToolRule[];
  /**
   * The `confirm` service: `true` or `false` answers every request so (and records it in
   * `confirmations`), a function decides, `undefined` registers none (anything needing approval is
   * refused).
   */
  confirm?: boolean | ConfirmFunction;
  /** Further services, e.g. `{ gitlab: settings }` or `{ readTracker }`. */
  services?: Partial<Services>;
  /** The registry's time limit per call, in ms. */
  timeoutMs?: number;
}

/** An agent for tests: its services, its registry, and what it was asked to confirm. */
export interface TestAgent {
  readonly services: ServiceContainer;
  readonly registry: SkillRegistry;
  /** Every request the `confirm` service received, in order. */
  readonly confirmations: ConfirmationRequest[];
  /** `registry.execute(tool, args, options)`. */
  call(tool: string, args?: Record<string, unknown>, options?: ExecuteOptions): Promise<ToolResult>;
}

/**
 * Wires an agent the way an application does — services, a preset's permission policy, a `confirm`
 * service, a registry using the given families — for testing skills and families through the one
 * execution pipeline:
 *
 * ```ts
 * const agent = createTestAgent({ cwd: dir, preset: 'trusted', families: [fsSkills], confirm: true });
 * const result = await agent.call('write_file', { path: '../elsewhere.txt', content: 'x' });
 * expect(agent.confirmations).toHaveLength(1);
 * ```
 */
export function createTestAgent(options: TestAgentOptions): TestAgent {
  const {
    cwd,
    preset = 'sandboxed',
    families = [],
    tools,
    allowedPaths,
    blockedPaths,
    rules,
    confirm,
    services: extra = {},
    timeoutMs,
  } = options;
  const services = new ServiceContainer().register('cwd', cwd).register(
    'permissions',
    resolvePreset(preset, {
      cwd,
      ...(tools ? { tools } : {}),
      ...(allowedPaths ? { allowedPaths } : {}),
      ...(blockedPaths ? { blockedPaths } : {}),
      ...(rules ? { rules } : {}),
    }),
  );
  for (const [name, value] of Object.entries(extra)) services.register(name as keyof Services, value as never);
  const confirmations: ConfirmationRequest[] = [];
  if (confirm !== undefined) {
    services.register('confirm', (request) => {
      confirmations.push(request);
      return typeof confirm === 'function' ? confirm(request) : confirm;
    });
  }
  const registry = new SkillRegistry(services, timeoutMs === undefined ? {} : { timeoutMs }).use(...families);
  return { services, registry, confirmations, call: (tool, args = {}, callOptions) => registry.execute(tool, args, callOptions) };
}

/** A {@link ChangingSkillFamily} whose skills a test swaps, counting who follows it. */
export interface ChangingTestFamily extends ChangingSkillFamily {
  /** Replaces the family's skills and tells its listeners, as a skill package edited on disk does. */
  set(skills: readonly SkillSpec[]): void;
  /** How many listeners follow the family: one per registry using it, until that registry is closed. */
  readonly listenerCount: number;
}

/**
 * A changing family for tests of whatever follows one (a registry, an agent, a server):
 *
 * ```ts
 * const family = createChangingTestFamily({ skills: [first] });
 * const registry = new SkillRegistry().use(family);
 * family.set([first, second]); // the registry now has both
 * registry.close();
 * expect(family.listenerCount).toBe(0);
 * ```
 */
export function createChangingTestFamily(options: { name?: string; skills?: readonly SkillSpec[] } = {}): ChangingTestFamily {
  const { name = 'changing' } = options;
  let skills = options.skills ?? [];
  const listeners = new Set<() => void>();
  return {
    name,
    get skills() {
      return skills;
    },
    get listenerCount() {
      return listeners.size;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      skills = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

/**
 * What is wrong with a result's `data` against the `outputSchema` its tool declares, as sentences
 * (`[]` when it matches): the check each family's tests make on real output, so a declared schema
 * never promises MCP clients (which validate `structuredContent` against it) what the tool does not
 * return. ajv in the schema's dialect, as the registry validates arguments, but nothing is
 * coerced or filled in.
 *
 * ```ts
 * const result = await agent.call('file_info', { path: 'a.txt' });
 * expect(await outputSchemaProblems(agent.registry, 'file_info', result)).toEqual([]);
 * ```
 */
export async function outputSchemaProblems(registry: SkillRegistry, tool: string, result: ToolResult): Promise<string[]> {
  const schema = registry.getSpec(tool)?.outputSchema;
  if (!schema) return [`${tool} declares no outputSchema.`];
  if (!result.success) return [`${tool} failed: ${result.error}`];
  if (result.data === undefined) return [`${tool} returned no data.`];
  const Ajv = await schemaDialectOf(tool, schema).loadAjv();
  const { $schema, ...rest } = schema as JsonSchemaObject & { $schema?: unknown };
  const validate = new Ajv({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
    validateFormats: false,
  }).compile(rest);
  if (validate(result.data)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}
