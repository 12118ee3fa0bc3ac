import type { JsonObject, ToolResult } from '@nexus/core';
import { day, detailText, listText, minute, shortSha, stateMark, usernames } from '../format.js';
import { type ActionContext, defineGitLabSkill, reply } from '../gitlab-skill.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, DEFAULT_LIMIT, flag, text, texts } from '../schema.js';
import { type WorkItemArguments, workItemFields, workItemListQuery, workItemProperties } from '../work-items.js';

/** Arguments of `gitlab_mr`. */
interface GitLabMrArguments extends WorkItemArguments {
  source_branch?: string;
  target_branch?: string;
  reviewers?: string[];
  reviewer_username?: string;
  draft?: boolean;
  squash?: boolean;
  remove_source_branch?: boolean;
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

interface Diff {
  old_path: string;
  new_path: string;
  new_file?: boolean;
  renamed_file?: boolean;
  deleted_file?: boolean;
  diff?: string;
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

/** Lines added and removed in one file's unified diff (headers `+++`/`---` excluded). */
function diffStats(diff: string | undefined): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of (diff ?? '').split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { added, removed };
}

function changeLetter(diff: Diff): string {
  if (diff.new_file) return 'A';
  if (diff.deleted_file) return 'D';
  if (diff.renamed_file) return 'R';
  return 'M';
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

/** `gitlab_mr`: merge requests — list, read, create, update, merge, close, reopen, comment, diff, commits, pipelines. */
export const gitlabMrSkill = defineGitLabSkill<GitLabMrArguments>({
  name: 'gitlab_mr',
  summary: 'GitLab merge requests.',
  scope: 'project',
  projectDescription: 'Project path or id; default: git remote (list without it: all projects, "this" = git remote)',
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
  },
  actions: {
    list: {
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
      required: ['source_branch', 'title'],
      async run(context) {
        const body = await createBody(context);
        return context.send<MergeRequest>({ method: 'POST', path: `${context.base}/merge_requests`, body }, (mr) =>
          `Created MR !${mr.iid}: ${mr.title} (${mr.source_branch} → ${mr.target_branch})\n${mr.web_url ?? ''}`.trim(),
        );
      },
    },
    update: {
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
      required: ['iid'],
      async run(context) {
        const { squash, remove_source_branch } = context.args;
        const body: JsonObject = {};
        if (squash !== undefined) body.squash = squash;
        if (remove_source_branch !== undefined) body.should_remove_source_branch = remove_source_branch;
        return context.send<MergeRequest>(
          { method: 'PUT', path: mrPath(context, '/merge'), ...(Object.keys(body).length ? { body } : {}) },
          (mr) => `Merged MR !${mr.iid}: ${mr.title} (state: ${mr.state})`,
        );
      },
    },
    close: { required: ['iid'], run: (context) => setState(context, 'close') },
    reopen: { required: ['iid'], run: (context) => setState(context, 'reopen') },
    comment: {
      required: ['iid', 'body'],
      run: (context) =>
        context.send<{ id: number }>(
          { method: 'POST', path: mrPath(context, '/notes'), body: { body: context.args.body as string } },
          (note) => `Commented on MR !${context.args.iid} (note ${note.id}).`,
        ),
    },
    diff: {
      required: ['iid'],
      async run(context) {
        const diffs = await context.list<Diff>(mrPath(context, '/diffs'), {}, 1000);
        let added = 0;
        let removed = 0;
        const lines = diffs.map((diff) => {
          const stats = diffStats(diff.diff);
          added += stats.added;
          removed += stats.removed;
          const path = diff.renamed_file ? `${diff.old_path} → ${diff.new_path}` : diff.new_path;
          return `${changeLetter(diff)} ${path} (+${stats.added}/-${stats.removed})`;
        });
        const output = [`MR !${context.args.iid} changes (${diffs.length} file(s), +${added}/-${removed}):`, ...lines].join('\n');
        return reply(
          output,
          diffs.map(({ diff: patch, ...file }) => ({ ...file, ...diffStats(patch) })),
        );
      },
    },
    commits: {
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
