import type { JsonObject } from '@nexus/core';
import { detailText, listText, stateMark } from '../format.js';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../gitlab-skill.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, DEFAULT_LIMIT, date, integer, limit, text, texts } from '../schema.js';
import { stateFilter } from '../work-items.js';

/** Arguments of `gitlab_epic`. */
interface GitLabEpicArguments extends GitLabArguments {
  iid?: number;
  title?: string;
  description?: string;
  labels?: string[];
  start_date?: string;
  due_date?: string;
  parent_id?: number;
  state?: string;
  author?: string;
  search?: string;
  issue_id?: number;
  epic_issue_id?: number;
  limit?: number;
}

interface Epic {
  id: number;
  iid: number;
  title: string;
  state: string;
  description?: string | null;
  labels?: string[];
  author?: { username: string };
  start_date?: string | null;
  due_date?: string | null;
  parent_id?: number | null;
  web_url?: string;
}

interface EpicIssue {
  iid: number;
  title: string;
  epic_issue_id?: number;
  references?: { full?: string };
}

const epicPath = (context: ActionContext<GitLabEpicArguments>, suffix = '') => `${context.base}/epics/${context.args.iid}${suffix}`;

/** Fields of a create or update body. GitLab reads fixed dates from `*_date_fixed` plus `*_date_is_fixed`. */
function epicFields(args: GitLabEpicArguments): JsonObject {
  const body: JsonObject = {};
  setIfPresent(body, 'title', args.title);
  setIfPresent(body, 'description', args.description);
  if (args.labels?.length) body.labels = args.labels.join(',');
  for (const field of ['start_date', 'due_date'] as const) {
    if (!args[field]) continue;
    body[`${field}_fixed`] = args[field];
    body[`${field}_is_fixed`] = true;
  }
  return body;
}

function setState(context: ActionContext<GitLabEpicArguments>, event: 'close' | 'reopen') {
  return context.send<Epic>(
    { method: 'PUT', path: epicPath(context), body: { state_event: event } },
    (epic) => `Epic &${epic.iid} is now ${epic.state}: ${epic.title}`,
  );
}

/** `gitlab_epic`: group epics and the issues in them (GitLab Premium). */
export const gitlabEpicSkill = defineGitLabSkill<GitLabEpicArguments>({
  name: 'gitlab_epic',
  summary: 'GitLab group epics (Premium).',
  scope: 'group',
  required: ['group'],
  properties: {
    iid: integer('Epic IID'),
    title: text(),
    description: text(),
    labels: texts(),
    start_date: date,
    due_date: date,
    parent_id: integer('create: parent epic id'),
    state: choice(['opened', 'closed', 'all'], 'List filter (default opened)'),
    author: text('List filter: username or "me"'),
    search: text(),
    issue_id: integer('add-issue: global issue id'),
    epic_issue_id: integer('remove-issue: link id from list-issues'),
    limit,
  },
  actions: {
    list: {
      async run(context) {
        const { state, labels, author, search, limit: max } = context.args;
        const query = {
          ...stateFilter(state),
          labels: labels?.length ? labels.join(',') : undefined,
          author_username: author ? await context.users.usernameOf(author, context.signal) : undefined,
          search,
        };
        const epics = await context.list<Epic>(`${context.base}/epics`, query, max ?? DEFAULT_LIMIT);
        const line = (epic: Epic) =>
          `${stateMark(epic.state)} &${epic.iid} ${epic.title}${epic.start_date || epic.due_date ? ` (${epic.start_date ?? '?'} → ${epic.due_date ?? '?'})` : ''}`;
        return reply(listText('epics', epics, line), epics);
      },
    },
    get: {
      required: ['iid'],
      async run(context) {
        const epic = await context.get<Epic>(epicPath(context));
        const output = detailText(
          `&${epic.iid} ${epic.title}`,
          [
            ['State', epic.state],
            ['Author', epic.author ? `@${epic.author.username}` : undefined],
            ['Start', epic.start_date],
            ['Due', epic.due_date],
            ['Labels', epic.labels],
            ['Parent epic id', epic.parent_id],
            ['URL', epic.web_url],
          ],
          epic.description || '(no description)',
        );
        return reply(output, epic);
      },
    },
    create: {
      required: ['title'],
      run(context) {
        const body = epicFields(context.args);
        setIfPresent(body, 'parent_id', context.args.parent_id);
        return context.send<Epic>({ method: 'POST', path: `${context.base}/epics`, body }, (epic) =>
          `Created epic &${epic.iid}: ${epic.title}\n${epic.web_url ?? ''}`.trim(),
        );
      },
    },
    update: {
      required: ['iid'],
      run: (context) =>
        context.send<Epic>(
          { method: 'PUT', path: epicPath(context), body: requireFields(epicFields(context.args)) },
          (epic) => `Updated epic &${epic.iid}: ${epic.title}`,
        ),
    },
    close: { required: ['iid'], run: (context) => setState(context, 'close') },
    reopen: { required: ['iid'], run: (context) => setState(context, 'reopen') },
    'add-issue': {
      required: ['iid', 'issue_id'],
      run: (context) =>
        context.send<{ id: number }>(
          { method: 'POST', path: epicPath(context, `/issues/${context.args.issue_id}`) },
          (link) => `Added issue ${context.args.issue_id} to epic &${context.args.iid} (link id ${link.id}).`,
        ),
    },
    'remove-issue': {
      required: ['iid', 'epic_issue_id'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: epicPath(context, `/issues/${context.args.epic_issue_id}`) },
          () => `Removed issue link ${context.args.epic_issue_id} from epic &${context.args.iid}.`,
        ),
    },
    'list-issues': {
      required: ['iid'],
      async run(context) {
        const issues = await context.list<EpicIssue>(epicPath(context, '/issues'), {}, context.args.limit ?? DEFAULT_LIMIT);
        const line = (issue: EpicIssue) =>
          `${issue.references?.full ?? `#${issue.iid}`} ${issue.title} (link ${issue.epic_issue_id ?? '?'})`;
        return reply(listText('issues', issues, line), issues);
      },
    },
  },
});
