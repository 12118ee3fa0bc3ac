import type { JsonObject, ToolResult } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, reply } from '../define-gitlab-skill.js';
import { day, detailText, listText, stateMark, usernames } from '../format.js';
import { listOf, objectWith } from '../output-schema.js';
import { requireFields } from '../request-body.js';
import { choice, DEFAULT_LIMIT, integer, text } from '../schema.js';
import { type WorkItemArguments, workItemFields, workItemListQuery, workItemProperties } from '../work-items.js';

interface Issue {
  iid: number;
  title: string;
  state: string;
  description?: string | null;
  labels?: string[];
  assignees?: Array<{ username: string }>;
  author?: { username: string };
  milestone?: { title: string } | null;
  due_date?: string | null;
  created_at?: string;
  updated_at?: string;
  web_url?: string;
  references?: { full?: string };
}

/** Arguments of `gitlab_issue`. */
export interface GitLabIssueArguments extends WorkItemArguments {
  target_iid?: number;
  target_project?: string;
  link_type?: string;
  link_id?: number;
}

interface LinkedIssue extends Issue {
  issue_link_id: number;
  link_type: string;
}

function labelSuffix(labels: string[] | undefined): string {
  return labels && labels.length > 0 ? ` [${labels.join(', ')}]` : '';
}

async function setState(context: ActionContext<GitLabIssueArguments>, event: 'close' | 'reopen'): Promise<ToolResult> {
  const { iid } = context.args;
  return context.send<Issue>(
    { method: 'PUT', path: `${context.base}/issues/${iid}`, body: { state_event: event } },
    (issue) => `Issue #${issue.iid} is now ${issue.state}: ${issue.title}`,
  );
}

const ISSUE = objectWith('id', 'iid', 'title');

/** `gitlab_issue`: list, read, create, update, close, reopen, link and comment on issues. */
export const gitlabIssueSkill = defineGitLabSkill<GitLabIssueArguments>({
  name: 'gitlab_issue',
  title: 'GitLab issues',
  description: 'GitLab issues.',
  scope: 'project',
  projectDescription: 'Project path or id; default: git remote (list without it: all projects, "this" = git remote)',
  parameters: {
    type: 'object',
    properties: {
      ...workItemProperties,
      state: choice(['opened', 'closed', 'all'], 'List filter (default opened)'),
      target_iid: integer('link: the other issue'),
      target_project: text('link: project of the other issue (default: the same)'),
      link_type: choice(['relates_to', 'blocks', 'is_blocked_by'], 'link (default relates_to; blocks: Premium)'),
      link_id: integer('unlink: issue_link_id from links'),
    },
  },
  actions: {
    list: {
      result: listOf('id', 'iid', 'title'),
      scope: 'any-project',
      async run(context) {
        const issues = await context.list<Issue>(
          `${context.base}/issues`,
          await workItemListQuery(context),
          context.args.limit ?? DEFAULT_LIMIT,
        );
        const crossProject = context.base === '';
        const line = (issue: Issue) =>
          `${stateMark(issue.state)} ${crossProject ? (issue.references?.full ?? `#${issue.iid}`) : `#${issue.iid}`} ${issue.title}${labelSuffix(issue.labels)}`;
        return reply(listText('issues', issues, line), issues);
      },
    },
    get: {
      result: ISSUE,
      required: ['iid'],
      async run(context) {
        const issue = await context.get<Issue>(`${context.base}/issues/${context.args.iid}`);
        const output = detailText(
          `#${issue.iid} ${issue.title}`,
          [
            ['State', issue.state],
            ['Author', issue.author ? `@${issue.author.username}` : undefined],
            ['Created', day(issue.created_at)],
            ['Updated', day(issue.updated_at)],
            ['Labels', issue.labels],
            ['Assignees', usernames(issue.assignees)],
            ['Milestone', issue.milestone?.title],
            ['Due', issue.due_date],
            ['URL', issue.web_url],
          ],
          issue.description || '(no description)',
        );
        return reply(output, issue);
      },
    },
    create: {
      result: ISSUE,
      required: ['title'],
      async run(context) {
        const body = await workItemFields(context, 'create', { assignees: context.args.assignees });
        // `assignee_ids` on a new issue is Premium; one assignee goes as `assignee_id`, which every tier takes.
        if (Array.isArray(body.assignee_ids) && body.assignee_ids.length === 1) {
          const [only] = body.assignee_ids;
          delete body.assignee_ids;
          body.assignee_id = only as number;
        }
        return context.send<Issue>({ method: 'POST', path: `${context.base}/issues`, body }, (issue) =>
          `Created issue #${issue.iid}: ${issue.title}\n${issue.web_url ?? ''}`.trim(),
        );
      },
    },
    update: {
      result: ISSUE,
      required: ['iid'],
      async run(context) {
        const body = requireFields(await workItemFields(context, 'update', { assignees: context.args.assignees }));
        return context.send<Issue>({ method: 'PUT', path: `${context.base}/issues/${context.args.iid}`, body }, (issue) =>
          `Updated issue #${issue.iid}: ${issue.title}\n${issue.web_url ?? ''}`.trim(),
        );
      },
    },
    close: { result: ISSUE, required: ['iid'], run: (context) => setState(context, 'close') },
    reopen: { result: ISSUE, required: ['iid'], run: (context) => setState(context, 'reopen') },
    links: {
      result: listOf('id', 'iid', 'title'),
      required: ['iid'],
      async run(context) {
        const links = await context.get<LinkedIssue[]>(`${context.base}/issues/${context.args.iid}/links`);
        const line = (issue: LinkedIssue) =>
          `${issue.link_type} ${issue.references?.full ?? `#${issue.iid}`} ${issue.title} [${issue.state}] (link_id ${issue.issue_link_id})`;
        return reply(listText('linked issues', links, line), links);
      },
    },
    link: {
      result: objectWith('source_issue', 'target_issue'),
      required: ['iid', 'target_iid'],
      run(context) {
        const { iid, target_iid, target_project, link_type } = context.args;
        const body: JsonObject = {
          target_project_id: target_project || (context.target.project as string),
          target_issue_iid: target_iid as number,
        };
        if (link_type) body.link_type = link_type;
        return context.send<{ link_type: string; target_issue: Issue }>(
          { method: 'POST', path: `${context.base}/issues/${iid}/links`, body },
          (link) => `Linked issue #${iid} ${link.link_type} ${link.target_issue.references?.full ?? `#${link.target_issue.iid}`}.`,
        );
      },
    },
    unlink: {
      result: objectWith('source_issue', 'target_issue'),
      required: ['iid', 'link_id'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: `${context.base}/issues/${context.args.iid}/links/${context.args.link_id}` },
          () => `Removed link ${context.args.link_id} from issue #${context.args.iid}.`,
        ),
    },
    comment: {
      result: objectWith('id', 'body'),
      required: ['iid', 'body'],
      run: (context) =>
        context.send<{ id: number }>(
          { method: 'POST', path: `${context.base}/issues/${context.args.iid}/notes`, body: { body: context.args.body as string } },
          (note) => `Commented on issue #${context.args.iid} (note ${note.id}).`,
        ),
    },
  },
});
