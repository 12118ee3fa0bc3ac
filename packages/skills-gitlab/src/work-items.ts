import type { JsonObject } from '@nexus/core';
import type { ActionContext, GitLabArguments } from './define-gitlab-skill.js';
import type { QueryValue } from './gitlab-client.js';
import { setIfPresent } from './request-body.js';
import { integer, limit, text, texts } from './schema.js';

/** Arguments shared by issues and merge requests. */
export interface WorkItemArguments extends GitLabArguments {
  iid?: number;
  title?: string;
  description?: string;
  labels?: string[];
  assignees?: string[];
  assignee_username?: string;
  author_username?: string;
  state?: string;
  search?: string;
  limit?: number;
  body?: string;
}

/** Parameters of issues and merge requests (`gitlab_issue`, `gitlab_mr`). */
export const workItemProperties = {
  iid: integer(),
  title: text(),
  description: text(),
  labels: texts(),
  assignees: texts('Usernames or "me"; [] clears on update'),
  assignee_username: text('List filter; "me", "None", "Any"'),
  author_username: text('List filter; "me"'),
  search: text(),
  limit,
  body: text('Comment text'),
};

/** GitLab's special filter values that mean "nobody" and "anybody" rather than a username. */
const ANY_OR_NONE = new Map([
  ['none', 'None'],
  ['any', 'Any'],
]);

/**
 * A user filter for list queries: `None`/`Any` become the `<field>_id` filter GitLab understands,
 * `"me"` and names become `<field>_username`.
 */
async function userFilter(
  context: ActionContext<GitLabArguments>,
  field: 'assignee' | 'author' | 'reviewer',
  value: string | undefined,
): Promise<Record<string, QueryValue>> {
  if (!value) return {};
  const special = ANY_OR_NONE.get(value.trim().toLowerCase());
  if (special) return { [`${field}_id`]: special };
  return { [`${field}_username`]: await context.users.usernameOf(value, context.signal) };
}

/** Query of the state filter: `opened` when omitted, nothing for `all`. */
export function stateFilter(state: string | undefined): Record<string, QueryValue> {
  const chosen = state ?? 'opened';
  return chosen === 'all' ? {} : { state: chosen };
}

/**
 * The query of an issue or MR list: every scope, the state filter (`opened` by default), search,
 * labels, and the people filters (`reviewer` only for merge requests).
 */
export async function workItemListQuery(
  context: ActionContext<WorkItemArguments & { reviewer_username?: string }>,
): Promise<Record<string, QueryValue>> {
  const { state, search, labels, assignee_username, author_username, reviewer_username } = context.args;
  return {
    scope: 'all',
    ...stateFilter(state),
    search,
    labels: labels?.length ? labels.join(',') : undefined,
    ...(await userFilter(context, 'assignee', assignee_username)),
    ...(await userFilter(context, 'author', author_username)),
    ...(await userFilter(context, 'reviewer', reviewer_username)),
  };
}

/**
 * The common fields of an issue or MR create/update body. Labels go as one comma-joined string;
 * people are resolved to ids (on update, an empty list clears them; on create it is left out).
 */
export async function workItemFields(
  context: ActionContext<WorkItemArguments>,
  mode: 'create' | 'update',
  people: { assignees?: string[]; reviewers?: string[] },
): Promise<JsonObject> {
  const { title, description, labels } = context.args;
  const body: JsonObject = {};
  setIfPresent(body, 'title', title);
  setIfPresent(body, 'description', description);
  if (labels && (labels.length > 0 || mode === 'update')) body.labels = labels.join(',');
  for (const [field, names] of Object.entries(people)) {
    if (!names || (names.length === 0 && mode === 'create')) continue;
    body[`${field.slice(0, -1)}_ids`] = await context.users.idsOf(names, context.signal);
  }
  return body;
}
