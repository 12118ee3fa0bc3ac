import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText, stateMark } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, date, integer, text } from '../schema.js';

/** Arguments of `gitlab_milestone`. */
export interface GitLabMilestoneArguments extends GitLabArguments {
  milestone_id?: number;
  title?: string;
  description?: string;
  start_date?: string;
  due_date?: string;
  state?: string;
  search?: string;
}

interface Milestone {
  id: number;
  iid?: number;
  title: string;
  state: string;
  description?: string | null;
  start_date?: string | null;
  due_date?: string | null;
  web_url?: string;
}

interface Item {
  iid: number;
  title: string;
  state: string;
  references?: { full?: string };
}

function dates(milestone: Milestone): string {
  const { start_date: start, due_date: due } = milestone;
  if (start && due) return ` (${start} to ${due})`;
  if (due) return ` (due ${due})`;
  if (start) return ` (started ${start})`;
  return '';
}

function milestoneFields(args: GitLabMilestoneArguments): JsonObject {
  const body: JsonObject = {};
  setIfPresent(body, 'title', args.title);
  setIfPresent(body, 'description', args.description);
  setIfPresent(body, 'start_date', args.start_date);
  setIfPresent(body, 'due_date', args.due_date);
  return body;
}

const milestonePath = (context: ActionContext<GitLabMilestoneArguments>, suffix = '') =>
  `${context.base}/milestones/${context.args.milestone_id}${suffix}`;

/** GitLab closes a milestone with `close` and reopens it with `activate`. */
function setState(context: ActionContext<GitLabMilestoneArguments>, event: 'close' | 'activate') {
  return context.send<Milestone>(
    { method: 'PUT', path: milestonePath(context), body: { state_event: event } },
    (milestone) => `Milestone #${milestone.id} ${milestone.title} is now ${milestone.state}.`,
  );
}

function itemList(noun: string, prefix: string, suffix: string) {
  return {
    required: ['milestone_id'] as const,
    result: listOf('id', 'iid', 'title'),
    async run(context: ActionContext<GitLabMilestoneArguments>) {
      const items = await context.list<Item>(milestonePath(context, suffix), {}, 100);
      return reply(
        listText(noun, items, (item) => `${stateMark(item.state)} ${item.references?.full ?? `${prefix}${item.iid}`} ${item.title}`),
        items,
      );
    },
  };
}

const MILESTONE = objectWith('id', 'title');

/** `gitlab_milestone`: project or group milestones. */
export const gitlabMilestoneSkill = defineGitLabSkill<GitLabMilestoneArguments>({
  name: 'gitlab_milestone',
  title: 'GitLab milestones',
  description: 'GitLab milestones of a project or group.',
  scope: 'project-or-group',
  parameters: {
    type: 'object',
    properties: {
      milestone_id: integer('Global milestone id (not iid)'),
      title: text(),
      description: text(),
      start_date: date,
      due_date: date,
      state: choice(['active', 'closed'], 'List filter'),
      search: text(),
    },
  },
  actions: {
    list: {
      result: listOf('id', 'title'),
      async run(context) {
        const milestones = await context.list<Milestone>(
          `${context.base}/milestones`,
          { state: context.args.state, search: context.args.search },
          100,
        );
        return reply(
          listText(
            'milestones',
            milestones,
            (milestone) => `${stateMark(milestone.state)} #${milestone.id} ${milestone.title}${dates(milestone)}`,
          ),
          milestones,
        );
      },
    },
    get: {
      result: MILESTONE,
      required: ['milestone_id'],
      async run(context) {
        const milestone = await context.get<Milestone>(milestonePath(context));
        const output = detailText(
          milestone.title,
          [
            ['ID', milestone.id],
            ['IID', milestone.iid],
            ['State', milestone.state],
            ['Start', milestone.start_date],
            ['Due', milestone.due_date],
            ['URL', milestone.web_url],
          ],
          milestone.description || '(no description)',
        );
        return reply(output, milestone);
      },
    },
    create: {
      result: MILESTONE,
      required: ['title'],
      run: (context) =>
        context.send<Milestone>(
          { method: 'POST', path: `${context.base}/milestones`, body: milestoneFields(context.args) },
          (milestone) => `Created milestone #${milestone.id}: ${milestone.title}${dates(milestone)}.`,
        ),
    },
    update: {
      result: MILESTONE,
      required: ['milestone_id'],
      run: (context) =>
        context.send<Milestone>(
          { method: 'PUT', path: milestonePath(context), body: requireFields(milestoneFields(context.args)) },
          (milestone) => `Updated milestone #${milestone.id}: ${milestone.title}.`,
        ),
    },
    close: { result: MILESTONE, required: ['milestone_id'], run: (context) => setState(context, 'close') },
    reopen: { result: MILESTONE, required: ['milestone_id'], run: (context) => setState(context, 'activate') },
    delete: {
      result: NOTHING,
      required: ['milestone_id'],
      run: (context) =>
        context.send({ method: 'DELETE', path: milestonePath(context) }, () => `Deleted milestone #${context.args.milestone_id}.`),
    },
    issues: itemList('issues', '#', '/issues'),
    'merge-requests': itemList('merge requests', '!', '/merge_requests'),
  },
});
