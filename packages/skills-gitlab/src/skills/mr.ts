import type { JsonObject, ToolResult } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, reply } from '../define-gitlab-skill.js';
import { changeLines, diffStats, type FileDiff } from '../diff-stats.js';
import { day, detailText, listText, minute, shortSha, stateMark, usernames } from '../format.js';
import { listOf, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, DEFAULT_LIMIT, flag, text, texts } from '../schema.js';
import { type WorkItemArguments, workItemFields, workItemListQuery, workItemProperties } from '../work-items.js';

/** Arguments of `gitlab_mr`. */
export interface GitLabMrArguments extends WorkItemArguments {
  source_branch?: string;
  target_branch?: string;
  reviewers?: string[];
  reviewer_username?: string;
  draft?: boolean;
  squash?: boolean;
  remove_source_branch?: boolean;
  auto_merge?: boolean;
  skip_ci?: boolean;
}

interface MergeRequest {
  iid: number;
  title: string;
  state: string;
  draft?: boolean;
  description?: string | null;
  source_branch?: string;
  target_branch?: string;
  labels?: string[];
  author?: { username: string };
  assignees?: Array<{ username: string }>;
  reviewers?: Array<{ username: string }>;
  milestone?: { title: string } | null;
  merge_status?: string;
  detailed_merge_status?: string;
  has_conflicts?: boolean;
  created_at?: string;
  updated_at?: string;
  web_url?: string;
  references?: { full?: string };
}

interface Commit {
  short_id?: string;
  id: string;
  author_name?: string;
  title?: string;
}

interface Pipeline {
  id: number;
  status: string;
  ref?: string;
  created_at?: string;
}

function mrPath(context: ActionContext<GitLabMrArguments>, suffix = ''): string {
  return `${context.base}/merge_requests/${context.args.iid}${suffix}`;
}

function setState(context: ActionContext<GitLabMrArguments>, event: 'close' | 'reopen'): Promise<ToolResult> {
  return context.send<MergeRequest>(
    { method: 'PUT', path: mrPath(context), body: { state_event: event } },
    (mr) => `MR !${mr.iid} is now ${mr.state}: ${mr.title}`,
  );
}

async function createBody(context: ActionContext<GitLabMrArguments>): Promise<JsonObject> {
  const { source_branch, target_branch, draft, squash, remove_source_branch, assignees, reviewers } = context.args;
  const body: JsonObject = { source_branch: source_branch as string };
  // Without a target GitLab refuses the MR; the project's default branch is what users mean.
  body.target_branch = target_branch || (await context.get<{ default_branch?: string }>(context.base)).default_branch || 'main';
  Object.assign(body, await workItemFields(context, 'create', { assignees, reviewers }));
  if (draft && typeof body.title === 'string' && !/^(draft:|\[draft\])/i.test(body.title)) body.title = `Draft: ${body.title}`;
  if (squash) body.squash = true;
  if (remove_source_branch) body.remove_source_branch = true;
  return body;
}

const MR = objectWith('id', 'iid', 'title');

/** `gitlab_mr`: merge requests — list, read, create, update, merge (now or when the pipeline succeeds), rebase, close, reopen, comment, diff, commits, pipelines. */
export const gitlabMrSkill = defineGitLabSkill<GitLabMrArguments>({
  name: 'gitlab_mr',
  title: 'GitLab merge requests',
  description: 'GitLab merge requests.',
  scope: 'project',
  projectDescription: 'Project path or id; default: git remote (list without it: all projects, "this" = git remote)',
  parameters: {
    type: 'object',
    properties: {
      ...workItemProperties,
      state: choice(['opened', 'closed', 'merged', 'all'], 'List filter (default opened)'),
      source_branch: text(),
      target_branch: text('Default: project default branch'),
      reviewers: texts('Usernames or "me"; [] clears on update'),
      reviewer_username: text('List filter; "me", "None", "Any"'),
      draft: flag(),
      squash: flag(),
      remove_source_branch: flag(),
      auto_merge: flag('merge: merge when the pipeline succeeds instead of now'),
      skip_ci: flag('rebase: no pipeline for the rebased branch'),
    },
  },
  actions: {
    list: {
      result: listOf('id', 'iid', 'title'),
      scope: 'any-project',
      async run(context) {
        const mrs = await context.list<MergeRequest>(
          `${context.base}/merge_requests`,
          await workItemListQuery(context),
          context.args.limit ?? DEFAULT_LIMIT,
        );
        const crossProject = context.base === '';
        const line = (mr: MergeRequest) =>
          `${stateMark(mr.state)}${mr.draft ? ' [draft]' : ''} ${crossProject ? (mr.references?.full ?? `!${mr.iid}`) : `!${mr.iid}`} ${mr.title}\n  ${mr.source_branch} → ${mr.target_branch}`;
        return reply(listText('merge requests', mrs, line), mrs);
      },
    },
    get: {
      result: MR,
      required: ['iid'],
      async run(context) {
        const mr = await context.get<MergeRequest>(mrPath(context));
        const output = detailText(
          `!${mr.iid} ${mr.title}`,
          [
            ['State', `${mr.state}${mr.draft ? ' (DRAFT)' : ''}`],
            ['Author', mr.author ? `@${mr.author.username}` : undefined],
            ['Branches', `${mr.source_branch} → ${mr.target_branch}`],
            ['Created', day(mr.created_at)],
            ['Updated', day(mr.updated_at)],
            ['Labels', mr.labels],
            ['Assignees', usernames(mr.assignees)],
            ['Reviewers', usernames(mr.reviewers)],
            ['Milestone', mr.milestone?.title],
            ['Merge status', mr.detailed_merge_status ?? mr.merge_status],
            ['Conflicts', mr.has_conflicts ? 'yes, resolve before merging' : undefined],
            ['URL', mr.web_url],
          ],
          mr.description || '(no description)',
        );
        return reply(output, mr);
      },
    },
    create: {
      result: MR,
      required: ['source_branch', 'title'],
      async run(context) {
        const body = await createBody(context);
        return context.send<MergeRequest>({ method: 'POST', path: `${context.base}/merge_requests`, body }, (mr) =>
          `Created MR !${mr.iid}: ${mr.title} (${mr.source_branch} → ${mr.target_branch})\n${mr.web_url ?? ''}`.trim(),
        );
      },
    },
    update: {
      result: MR,
      required: ['iid'],
      async run(context) {
        const { assignees, reviewers, target_branch } = context.args;
        const body = await workItemFields(context, 'update', { assignees, reviewers });
        setIfPresent(body, 'target_branch', target_branch);
        requireFields(body);
        return context.send<MergeRequest>({ method: 'PUT', path: mrPath(context), body }, (mr) =>
          `Updated MR !${mr.iid}: ${mr.title}\n${mr.web_url ?? ''}`.trim(),
        );
      },
    },
    merge: {
      result: MR,
      required: ['iid'],
      async run(context) {
        const { squash, remove_source_branch, auto_merge } = context.args;
        const body: JsonObject = {};
        if (squash !== undefined) body.squash = squash;
        if (remove_source_branch !== undefined) body.should_remove_source_branch = remove_source_branch;
        // `merge_when_pipeline_succeeds` is deprecated for `auto_merge` (17.11), but every version takes it;
        // an older GitLab would ignore an unknown `auto_merge` and merge at once.
        if (auto_merge) body.merge_when_pipeline_succeeds = true;
        return context.send<MergeRequest & { merge_when_pipeline_succeeds?: boolean }>(
          { method: 'PUT', path: mrPath(context, '/merge'), ...(Object.keys(body).length ? { body } : {}) },
          (mr) =>
            mr.state === 'merged' || !auto_merge
              ? `Merged MR !${mr.iid}: ${mr.title} (state: ${mr.state})`
              : `MR !${mr.iid} will be merged when its pipeline succeeds.`,
        );
      },
    },
    'cancel-auto-merge': {
      result: MR,
      required: ['iid'],
      run: (context) =>
        context.send<MergeRequest>(
          { method: 'POST', path: mrPath(context, '/cancel_merge_when_pipeline_succeeds') },
          (mr) => `MR !${mr.iid} will no longer be merged automatically.`,
        ),
    },
    rebase: {
      result: objectWith('rebase_in_progress'),
      required: ['iid'],
      run: (context) =>
        context.send<{ rebase_in_progress?: boolean }>(
          {
            method: 'PUT',
            path: mrPath(context, '/rebase'),
            ...(context.args.skip_ci ? { body: { skip_ci: true } } : {}),
          },
          (answer) =>
            answer?.rebase_in_progress
              ? `Rebase of MR !${context.args.iid} started; GitLab rebases in the background (get shows when it is done).`
              : `Rebased MR !${context.args.iid}.`,
        ),
    },
    close: { result: MR, required: ['iid'], run: (context) => setState(context, 'close') },
    reopen: { result: MR, required: ['iid'], run: (context) => setState(context, 'reopen') },
    comment: {
      result: objectWith('id', 'body'),
      required: ['iid', 'body'],
      run: (context) =>
        context.send<{ id: number }>(
          { method: 'POST', path: mrPath(context, '/notes'), body: { body: context.args.body as string } },
          (note) => `Commented on MR !${context.args.iid} (note ${note.id}).`,
        ),
    },
    diff: {
      result: listOf('old_path', 'new_path'),
      required: ['iid'],
      async run(context) {
        const diffs = await context.list<FileDiff>(mrPath(context, '/diffs'), {}, 1000);
        const totals = diffs.map((diff) => diffStats(diff.diff));
        const added = totals.reduce((sum, stats) => sum + stats.added, 0);
        const removed = totals.reduce((sum, stats) => sum + stats.removed, 0);
        const output = [`MR !${context.args.iid} changes (${diffs.length} file(s), +${added}/-${removed}):`, ...changeLines(diffs)].join(
          '\n',
        );
        return reply(
          output,
          diffs.map(({ diff: patch, ...file }) => ({ ...file, ...diffStats(patch) })),
        );
      },
    },
    commits: {
      result: listOf('id'),
      required: ['iid'],
      async run(context) {
        const commits = await context.list<Commit>(mrPath(context, '/commits'), {}, 1000);
        return reply(
          listText(
            'commits',
            commits,
            (commit) => `${commit.short_id ?? shortSha(commit.id)} ${commit.author_name ?? ''}: ${commit.title ?? ''}`,
          ),
          commits,
        );
      },
    },
    pipelines: {
      result: listOf('id', 'status'),
      required: ['iid'],
      async run(context) {
        const pipelines = await context.list<Pipeline>(mrPath(context, '/pipelines'), {}, 100);
        return reply(
          listText(
            'pipelines',
            pipelines,
            (pipeline) => `[${pipeline.status}] #${pipeline.id} ${pipeline.ref ?? ''} ${minute(pipeline.created_at)}`,
          ),
          pipelines,
        );
      },
    },
  },
});
