import {
  type ConfirmFunction,
  defineSkill,
  InvalidParametersError,
  type JsonObject,
  type JsonSchema,
  type JsonSchemaObject,
  type JsonValue,
  PermissionDeniedError,
  type ServiceContainer,
  type SkillSpec,
  ToolResult,
  type ToolResultJson,
} from '@nexus/core';
import { isDestructiveAction, isMutatingAction } from './action-kinds.js';
import { truncateText } from './format.js';
import type { GitRemote } from './git-remote.js';
import { GitLabApiError } from './gitlab-api-error.js';
import { type GitLabClient, type GitLabRequest, graphqlRequest, type QueryValue } from './gitlab-client.js';
import { GitLabConnections } from './gitlab-connections.js';
import { resolveTarget, type Scope, selectInstance, type Target } from './gitlab-target.js';
import { readOriginRemote } from './origin-remote.js';
import { gitlabOutputSchema } from './output-schema.js';
import { maskJson } from './secret-mask.js';
import type { UserDirectory } from './user-directory.js';

/** Arguments every GitLab skill accepts. */
export interface GitLabArguments {
  /** The action to run, one of the skill's. */
  action: string;
  /** A configured instance name (default: the one serving the git remote, else the default instance). */
  instance?: string;
  /** Project path or id (`"this"` or omitted: from the git remote), for project actions. */
  project?: string;
  /** Group path or id, for group actions. */
  group?: string;
  /** Return the requests a mutating action would send, and send nothing. */
  dry_run?: boolean;
}

/** A change an action wants to make: the requests it will send and how to carry them out. */
export interface ChangePlan {
  /** Requests that will be sent, shown by `dry_run` and in the confirmation. */
  requests: GitLabRequest[];
  /** Anything else that will happen, e.g. `write /tmp/a.zip`. */
  effects?: string[];
  /** Sends the requests and describes the outcome. */
  perform(): Promise<ToolResult>;
}

/** A successful result: text for the LLM and the GitLab object(s) as `data`. */
export function reply(output: string, data: unknown): ToolResult {
  return ToolResult.ok(output, (data ?? null) as JsonValue);
}

/** Property names whose values never leave a skill, at any depth of `data`. */
const ALWAYS_MASKED_KEYS: ReadonlySet<string> = new Set(['runners_token', 'private_token']);

/** Everything an action needs: its arguments, the client, the target, and the change gate. */
export class ActionContext<A extends GitLabArguments> {
  /** Tool name, `gitlab_…`. */
  readonly tool: string;
  /** The action being run. */
  readonly action: string;
  /** The call's arguments, validated against the skill's parameters. */
  readonly args: A;
  /** The client of the chosen instance. */
  readonly client: GitLabClient;
  /** Resolves `"me"` and usernames to GitLab usernames and ids. */
  readonly users: UserDirectory;
  /** The project or group the call works on. */
  readonly target: Target;
  /** The call's cancellation signal. */
  readonly signal: AbortSignal | undefined;
  /** Who to ask for approval during this call (the call's `SkillContext.confirm`). */
  readonly confirm: ConfirmFunction | undefined;
  /** The agent's services. */
  readonly services: ServiceContainer;
  #planned = false;

  constructor(fields: Omit<ActionContext<A>, 'base' | 'planned' | 'get' | 'list' | 'send' | 'change' | 'query' | 'mutate'>) {
    this.tool = fields.tool;
    this.action = fields.action;
    this.args = fields.args;
    this.client = fields.client;
    this.users = fields.users;
    this.target = fields.target;
    this.signal = fields.signal;
    this.confirm = fields.confirm;
    this.services = fields.services;
  }

  /** Whether {@link change} answered with the plan of a `dry_run` instead of changing anything. */
  get planned(): boolean {
    return this.#planned;
  }

  /** API path prefix of the target (`/projects/group%2Fname`, `/groups/g` or `''`). */
  get base(): string {
    return this.target.base;
  }

  /** GETs one object. */
  get<T = JsonObject>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return this.client.request<T>({ method: 'GET', path, ...(query ? { query } : {}) }, this.signal);
  }

  /** GETs up to `limit` items of a list, paged as its endpoint documents (see `pagingOf`). */
  list<T = JsonObject>(path: string, query: Record<string, QueryValue> = {}, limit = 100): Promise<T[]> {
    return this.client.list<T>(path, query, limit, this.signal);
  }

  /** Runs a read-only GraphQL query on the instance's `/api/graphql` and returns its `data`. */
  query<T = JsonObject>(query: string, variables: JsonObject = {}): Promise<T> {
    return this.client.graphql<T>(graphqlRequest(query, variables), this.signal);
  }

  /**
   * Sends one GraphQL mutation through {@link change}. `field` names the mutation, whose payload
   * becomes `data`; the payload's `errors` (GitLab's way of refusing a mutation) fail the call.
   */
  mutate<T extends object>(query: string, variables: JsonObject, field: string, render: (payload: T) => string): Promise<ToolResult> {
    const request = graphqlRequest(query, variables);
    return this.change({
      requests: [request],
      perform: async () => {
        const payload = (await this.client.graphql<Record<string, (T & { errors?: string[] }) | null>>(request, this.signal))[field];
        if (!payload) throw new GitLabApiError(`GitLab answered ${field} without a result.`, { status: 0 });
        if (payload.errors?.length) throw new GitLabApiError(`GitLab refused ${field}: ${payload.errors.join('; ')}`, { status: 422 });
        return reply(render(payload), payload);
      },
    });
  }

  /** Sends one mutating request through {@link change}; the response becomes `data`. */
  send<T = JsonObject>(request: GitLabRequest, render: (response: T) => string): Promise<ToolResult> {
    return this.change({
      requests: [request],
      perform: async () => {
        const response = await this.client.request<T>(request, this.signal);
        return reply(render(response), response);
      },
    });
  }

  /**
   * The gate every mutating action passes: with `dry_run` it returns the requests instead of
   * sending them; otherwise it asks for approval — the call's `confirm`, else the `confirm`
   * service (granted at `yolo`, refused with neither) — and only then performs the change.
   */
  async change(plan: ChangePlan): Promise<ToolResult> {
    const requests = plan.requests.map((request) => ({
      method: request.method,
      url: this.client.urlFor(request).href,
      ...(request.body ? { body: request.body } : {}),
    }));
    const effects = plan.effects ?? [];
    const lines = [
      ...requests.map((request) => `${request.method} ${request.url}${request.body ? ` ${JSON.stringify(request.body)}` : ''}`),
      ...effects,
    ];
    if (this.args.dry_run) {
      this.#planned = true;
      return ToolResult.ok(`Dry run, nothing changed. ${this.tool} ${this.action} would:\n${lines.join('\n')}`, {
        dry_run: true,
        requests,
        effects,
      });
    }
    const approved = await this.services.confirm(
      {
        tool: this.tool,
        action: `${this.action} on GitLab instance '${this.client.name}'${this.target.label ? ` (${this.target.label})` : ''}`,
        detail: lines.join('\n'),
      },
      this.confirm,
    );
    if (!approved) throw new PermissionDeniedError(`GitLab action denied by user: ${this.tool} ${this.action} was not confirmed.`);
    return plan.perform();
  }
}

/** One action of a skill. */
export interface GitLabAction<A extends GitLabArguments> {
  /** Parameters this action needs; `undefined`, `null`, `''` and `[]` count as missing. */
  required?: ReadonlyArray<keyof A & string>;
  /** What it works on, when it differs from the skill's scope. */
  scope?: Scope;
  /**
   * JSON Schema of what the action returns as `data` (GitLab's answer: an object, a list or
   * `null`), the `result` of the skill's outputSchema; any JSON value when absent.
   */
  result?: JsonSchema;
  run(context: ActionContext<A>): Promise<ToolResult>;
}

/** A GitLab skill as a table of actions. */
export interface GitLabSkillDefinition<A extends GitLabArguments> {
  /** Tool name, `gitlab_…`. */
  name: string;
  /** A name for people, e.g. `GitLab branches` (MCP `title`). */
  title?: string;
  /** One sentence for the LLM; the list of actions is appended. */
  description: string;
  /** What the actions work on unless they say otherwise. */
  scope: Scope;
  /**
   * Skill-specific parameters as a JSON Schema object, besides action, instance, project/group and
   * dry_run, which are added; its `required` lists what every action needs (besides `action`).
   */
  parameters?: JsonSchemaObject;
  /** Description of the `project` parameter, when the default does not fit. */
  projectDescription?: string;
  actions: Record<string, GitLabAction<A>>;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function buildParameters<A extends GitLabArguments>(definition: GitLabSkillDefinition<A>): JsonSchemaObject {
  const names = Object.keys(definition.actions);
  const scopes = new Set(Object.values(definition.actions).map((action) => action.scope ?? definition.scope));
  const takesProject = scopes.has('project') || scopes.has('any-project') || scopes.has('project-or-group') || scopes.has('anywhere');
  const takesGroup = scopes.has('group') || scopes.has('project-or-group') || scopes.has('anywhere');
  const projectDescription =
    definition.projectDescription ??
    (scopes.has('project-or-group') || scopes.has('anywhere')
      ? 'Project path or id; "this" = git remote'
      : 'Project path or id; default: git remote');
  const properties: Record<string, JsonSchema> = {
    action: { type: 'string', enum: names },
    ...(takesProject ? { project: { type: 'string', description: projectDescription } } : {}),
    ...(takesGroup
      ? {
          group: {
            type: 'string',
            description:
              scopes.has('project-or-group') || scopes.has('anywhere') ? 'Group path or id (instead of project)' : 'Group path or id',
          },
        }
      : {}),
    ...definition.parameters?.properties,
    instance: { type: 'string', description: 'Configured instance name' },
    ...(names.some(isMutatingAction) ? { dry_run: { type: 'boolean', description: 'Show the request, send nothing' } } : {}),
  };
  return { type: 'object', properties, required: ['action', ...(definition.parameters?.required ?? [])], additionalProperties: false };
}

function describe<A extends GitLabArguments>(definition: GitLabSkillDefinition<A>): string {
  const actions = Object.entries(definition.actions).map(([name, action]) => {
    const required = (action.required ?? []).filter((parameter) => !definition.parameters?.required?.includes(parameter));
    return required.length > 0 ? `${name}(${required.join(',')})` : name;
  });
  return `${definition.description} Actions: ${actions.join(', ')}.`;
}

function masked(result: ToolResult, secrets: readonly string[]): ToolResult {
  return ToolResult.fromJSON(maskJson(result.toJSON() as unknown as JsonValue, secrets, ALWAYS_MASKED_KEYS) as unknown as ToolResultJson);
}

function memoise<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}

/** The data of a successful call as its outputSchema describes it: the action's answer or plan, under the action's name. */
function envelope(action: string, data: JsonValue | undefined, planned: boolean): JsonObject {
  return planned ? { action, ...(data as JsonObject) } : { action, result: data ?? null };
}

/**
 * Defines a GitLab skill from a table of actions. The shared part — action dispatch, per-action
 * required parameters, instance and project/group resolution, secret masking, output limits and
 * the outputSchema (see {@link gitlabOutputSchema}) — lives here, so each skill is its actions.
 * Every skill needs the `trusted` level (enforced by `defineSkill`); mutating actions go through
 * {@link ActionContext.change}.
 */
export function defineGitLabSkill<A extends GitLabArguments>(definition: GitLabSkillDefinition<A>): SkillSpec {
  const actionNames = Object.keys(definition.actions);
  const readsOnly = !actionNames.some(isMutatingAction);
  return defineSkill<A>({
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: describe(definition),
    parameters: buildParameters(definition),
    readOnly: readsOnly,
    destructive: actionNames.some(isDestructiveAction),
    ...(readsOnly ? { idempotent: true } : {}),
    openWorld: true,
    outputSchema: gitlabOutputSchema(definition.actions),
    minimumLevel: 'trusted',
    create:
      (services) =>
      async (args, { signal, confirm }) => {
        const action = Object.hasOwn(definition.actions, args.action) ? definition.actions[args.action] : undefined;
        if (!action) {
          throw new InvalidParametersError(`Unknown action: ${String(args.action)}. Expected one of: ${actionNames.join(', ')}.`, {
            parameter: 'action',
          });
        }
        const missing = (action.required ?? []).find((parameter) => isMissing(args[parameter]));
        if (missing) throw new InvalidParametersError(`${missing} parameter required for ${args.action} action.`, { parameter: missing });

        const connections = GitLabConnections.of(services);
        const remote = memoise<GitRemote | undefined>(() => readOriginRemote(services.getCwd(), signal));
        const instanceName = await selectInstance(connections.settings, args.instance, remote);
        const { client, users } = connections.connect(instanceName);
        let result: ToolResult;
        let planned = false;
        try {
          const target = await resolveTarget(
            action.scope ?? definition.scope,
            args,
            { name: instanceName, url: client.instance.url },
            remote,
          );
          const context = new ActionContext<A>({
            tool: definition.name,
            action: args.action,
            args,
            client,
            users,
            target,
            signal,
            confirm,
            services,
          });
          result = await action.run(context);
          planned = context.planned;
        } catch (error) {
          // Caught here rather than by defineSkill so that failures are masked too: an error body can echo the token.
          result = ToolResult.fromError(error);
        }
        const limited = result.success
          ? ToolResult.ok(truncateText(result.output, connections.settings.maxOutputChars), envelope(args.action, result.data, planned))
          : result;
        return masked(limited, await client.secrets());
      },
  });
}
