import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText } from '../format.js';
import type { QueryValue } from '../gitlab-client.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { requireFields } from '../request-body.js';
import { choice, flag, text } from '../schema.js';
import { MASK } from '../secret-mask.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_variable`. */
export interface GitLabVariableArguments extends GitLabArguments {
  key?: string;
  value?: string;
  variable_type?: string;
  protected?: boolean;
  masked?: boolean;
  raw?: boolean;
  environment_scope?: string;
  reveal?: boolean;
}

interface Variable {
  key: string;
  value?: string | null;
  variable_type?: string;
  protected?: boolean;
  masked?: boolean;
  hidden?: boolean;
  raw?: boolean;
  environment_scope?: string;
}

const FLAGS = ['protected', 'masked', 'raw'] as const;

/** Values stay out of results unless `reveal` is set (and hidden variables have none to give). */
function shown(variable: Variable, reveal: boolean | undefined): Variable {
  return reveal && !variable.hidden
    ? variable
    : { ...variable, value: variable.value === null || variable.value === undefined ? variable.value : MASK };
}

function variablePath(context: ActionContext<GitLabVariableArguments>): string {
  return `${context.base}/variables/${segment(context.args.key ?? '', 'key')}`;
}

/** GitLab's filter that picks one variable when the same key exists in several environments. */
function scopeFilter(context: ActionContext<GitLabVariableArguments>): Record<string, QueryValue> | undefined {
  const scope = context.args.environment_scope;
  return scope ? { 'filter[environment_scope]': scope } : undefined;
}

function settingsOf(args: GitLabVariableArguments): JsonObject {
  const body: JsonObject = {};
  for (const name of FLAGS) if (args[name] !== undefined) body[name] = args[name] as boolean;
  if (args.variable_type) body.variable_type = args.variable_type;
  return body;
}

const markers = (variable: Variable) => FLAGS.filter((name) => variable[name]).join(', ');

const VARIABLE = objectWith('key');

/** `gitlab_variable`: CI/CD variables of a project or group. */
export const gitlabVariableSkill = defineGitLabSkill<GitLabVariableArguments>({
  name: 'gitlab_variable',
  title: 'GitLab CI/CD variables',
  description: 'GitLab CI/CD variables (project or group). Values are hidden unless reveal is true.',
  scope: 'project-or-group',
  parameters: {
    type: 'object',
    properties: {
      key: text(),
      value: text(),
      variable_type: choice(['env_var', 'file']),
      protected: flag(),
      masked: flag(),
      raw: flag('Do not expand $references'),
      environment_scope: text('Default *'),
      reveal: flag('get: show the value'),
    },
  },
  actions: {
    list: {
      result: listOf('key'),
      async run(context) {
        const variables = await context.list<Variable>(`${context.base}/variables`, {}, 100);
        const line = (variable: Variable) =>
          `${variable.key}${markers(variable) ? ` (${markers(variable)})` : ''}${variable.environment_scope && variable.environment_scope !== '*' ? ` [${variable.environment_scope}]` : ''}`;
        return reply(
          listText('variables', variables, line),
          variables.map((variable) => shown(variable, false)),
        );
      },
    },
    get: {
      result: VARIABLE,
      required: ['key'],
      async run(context) {
        const variable = shown(await context.get<Variable>(variablePath(context), scopeFilter(context)), context.args.reveal);
        const output = detailText(variable.key, [
          ['Value', variable.hidden ? '(hidden)' : variable.value],
          ['Type', variable.variable_type],
          ['Protected', String(Boolean(variable.protected))],
          ['Masked', String(Boolean(variable.masked))],
          ['Raw', String(Boolean(variable.raw))],
          ['Scope', variable.environment_scope],
        ]);
        return reply(output, variable);
      },
    },
    create: {
      result: VARIABLE,
      required: ['key', 'value'],
      run(context) {
        const { key, value, environment_scope: scope } = context.args;
        const body: JsonObject = {
          key: key as string,
          value: value as string,
          ...settingsOf(context.args),
          ...(scope ? { environment_scope: scope } : {}),
        };
        return context.change({
          requests: [{ method: 'POST', path: `${context.base}/variables`, body: { ...body, value: MASK } }],
          perform: async () => {
            const variable = await context.client.request<Variable>(
              { method: 'POST', path: `${context.base}/variables`, body },
              context.signal,
            );
            return reply(`Created variable ${variable.key}${markers(variable) ? ` (${markers(variable)})` : ''}.`, shown(variable, false));
          },
        });
      },
    },
    update: {
      result: VARIABLE,
      required: ['key'],
      run(context) {
        const { value } = context.args;
        const body = requireFields({ ...(value ? { value } : {}), ...settingsOf(context.args) });
        const request = {
          method: 'PUT' as const,
          path: variablePath(context),
          ...(scopeFilter(context) ? { query: scopeFilter(context) } : {}),
        };
        return context.change({
          requests: [{ ...request, body: value ? { ...body, value: MASK } : body }],
          perform: async () => {
            const variable = await context.client.request<Variable>({ ...request, body }, context.signal);
            return reply(`Updated variable ${variable.key}${markers(variable) ? ` (${markers(variable)})` : ''}.`, shown(variable, false));
          },
        });
      },
    },
    delete: {
      result: NOTHING,
      required: ['key'],
      run: (context) => {
        const filter = scopeFilter(context);
        return context.send(
          { method: 'DELETE', path: variablePath(context), ...(filter ? { query: filter } : {}) },
          () => `Deleted variable ${context.args.key}.`,
        );
      },
    },
  },
});
