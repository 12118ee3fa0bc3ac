import type { JsonObject, JsonValue } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { day, detailText, listText } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, flag, integer, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_feature_flag`. */
export interface GitLabFeatureFlagArguments extends GitLabArguments {
  name?: string;
  description?: string;
  active?: boolean;
  strategies?: JsonValue[];
  scope?: string;
  list_iid?: number;
  list_name?: string;
  user_xids?: string;
}

interface Strategy {
  name: string;
  parameters?: Record<string, unknown>;
  scopes?: Array<{ environment_scope: string }>;
}

interface FeatureFlag {
  name: string;
  description?: string | null;
  active?: boolean;
  version?: string;
  created_at?: string;
  updated_at?: string;
  strategies?: Strategy[];
}

interface UserList {
  id?: number;
  iid: number;
  name: string;
  user_xids?: string;
}

const STRATEGY_NAMES = ['default', 'gradualRolloutUserId', 'userWithId', 'gitlabUserList', 'flexibleRollout'];

const strategySchema = {
  type: 'array',
  description: 'Rollout strategies',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string', enum: STRATEGY_NAMES },
      parameters: { type: 'object' },
      scopes: {
        type: 'array',
        items: { type: 'object', properties: { environment_scope: { type: 'string' } }, required: ['environment_scope'] },
      },
    },
    required: ['name'],
  },
};

const flagPath = (context: ActionContext<GitLabFeatureFlagArguments>) =>
  `${context.base}/feature_flags/${segment(context.args.name ?? '', 'name')}`;
// GitLab addresses a user list by its project-scoped iid; its global id is in no path.
const listPath = (context: ActionContext<GitLabFeatureFlagArguments>) =>
  `${context.base}/feature_flags_user_lists/${context.args.list_iid}`;
const userIds = (list: UserList) => (list.user_xids ?? '').split(',').filter((id) => id.trim());
const listLine = (list: UserList) => `${list.name} (list_iid ${list.iid}, ${userIds(list).length} users)`;

function strategyLine(strategy: Strategy): string {
  const environments = (strategy.scopes ?? []).map((scope) => scope.environment_scope).join(', ') || '*';
  const parameters = strategy.parameters && Object.keys(strategy.parameters).length ? ` ${JSON.stringify(strategy.parameters)}` : '';
  return `- ${strategy.name} on ${environments}${parameters}`;
}

function flagFields(args: GitLabFeatureFlagArguments): JsonObject {
  const body: JsonObject = {};
  setIfPresent(body, 'description', args.description);
  if (args.active !== undefined) body.active = args.active;
  if (args.strategies?.length) body.strategies = args.strategies;
  return body;
}

function listFields(args: GitLabFeatureFlagArguments): JsonObject {
  const body: JsonObject = {};
  setIfPresent(body, 'name', args.list_name);
  setIfPresent(body, 'user_xids', args.user_xids);
  return body;
}

const FLAG = objectWith('name');
const USER_LIST = objectWith('id', 'name');

/** `gitlab_feature_flag`: feature flags of a project and their user lists. */
export const gitlabFeatureFlagSkill = defineGitLabSkill<GitLabFeatureFlagArguments>({
  name: 'gitlab_feature_flag',
  title: 'GitLab feature flags',
  description: 'GitLab feature flags and feature-flag user lists.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      name: text('Flag name'),
      description: text(),
      active: flag(),
      strategies: strategySchema,
      scope: choice(['enabled', 'disabled'], 'List filter'),
      list_iid: integer('User list iid (as listed)'),
      list_name: text('User list name'),
      user_xids: text('Comma-separated user ids'),
    },
  },
  actions: {
    list: {
      result: listOf('name'),
      async run(context) {
        const flags = await context.list<FeatureFlag>(`${context.base}/feature_flags`, { scope: context.args.scope }, 100);
        return reply(
          listText('feature flags', flags, (item) =>
            `${item.name} [${item.active ? 'active' : 'inactive'}] ${item.version ?? ''}`.trimEnd(),
          ),
          flags,
        );
      },
    },
    get: {
      result: FLAG,
      required: ['name'],
      async run(context) {
        const item = await context.get<FeatureFlag>(flagPath(context));
        const output = detailText(
          item.name,
          [
            ['Status', item.active ? 'active' : 'inactive'],
            ['Description', item.description],
            ['Version', item.version],
            ['Created', day(item.created_at)],
            ['Updated', day(item.updated_at)],
          ],
          ['Strategies:', ...(item.strategies ?? []).map(strategyLine)].join('\n'),
        );
        return reply(output, item);
      },
    },
    create: {
      result: FLAG,
      required: ['name'],
      run: (context) =>
        context.send<FeatureFlag>(
          {
            method: 'POST',
            path: `${context.base}/feature_flags`,
            body: { name: context.args.name as string, version: 'new_version_flag', ...flagFields(context.args) },
          },
          (item) => `Created feature flag ${item.name} (${item.active === false ? 'inactive' : 'active'}).`,
        ),
    },
    update: {
      result: FLAG,
      required: ['name'],
      run: (context) =>
        context.send<FeatureFlag>(
          { method: 'PUT', path: flagPath(context), body: requireFields(flagFields(context.args)) },
          (item) => `Updated feature flag ${item.name} (${item.active ? 'active' : 'inactive'}).`,
        ),
    },
    delete: {
      result: NOTHING,
      required: ['name'],
      run: (context) => context.send({ method: 'DELETE', path: flagPath(context) }, () => `Deleted feature flag ${context.args.name}.`),
    },
    'list-user-lists': {
      result: listOf('id', 'name'),
      async run(context) {
        const lists = await context.list<UserList>(`${context.base}/feature_flags_user_lists`, {}, 100);
        return reply(listText('user lists', lists, listLine), lists);
      },
    },
    'get-user-list': {
      result: USER_LIST,
      required: ['list_iid'],
      async run(context) {
        const list = await context.get<UserList>(listPath(context));
        const output = detailText(list.name, [
          ['List iid', list.iid],
          ['Users', userIds(list)],
        ]);
        return reply(output, list);
      },
    },
    'create-user-list': {
      result: USER_LIST,
      required: ['list_name', 'user_xids'],
      run: (context) =>
        context.send<UserList>(
          { method: 'POST', path: `${context.base}/feature_flags_user_lists`, body: listFields(context.args) },
          (list) => `Created user list ${listLine(list)}.`,
        ),
    },
    'update-user-list': {
      result: USER_LIST,
      required: ['list_iid'],
      run: (context) =>
        context.send<UserList>(
          { method: 'PUT', path: listPath(context), body: requireFields(listFields(context.args)) },
          (list) => `Updated user list ${listLine(list)}.`,
        ),
    },
    'delete-user-list': {
      result: NOTHING,
      required: ['list_iid'],
      run: (context) =>
        context.send({ method: 'DELETE', path: listPath(context) }, () => `Deleted user list with iid ${context.args.list_iid}.`),
    },
  },
});
