import { InvalidParametersError } from '@nexus/core';
import { defineGitLabSkill, reply } from '../define-gitlab-skill.js';
import type { EpicBackend, EpicContext, EpicView, GitLabEpicArguments } from '../epics/epic-backend.js';
import { restEpics } from '../epics/rest-epics.js';
import { workItemEpics } from '../epics/work-item-epics.js';
import { detailText, listText, stateMark } from '../format.js';
import { atLeast, instanceVersion } from '../instance-version.js';
import { listOf, MAYBE_OBJECT, objectWith } from '../output-schema.js';
import { choice, date, integer, limit, text, texts } from '../schema.js';

/**
 * The API that serves epics on this instance: GraphQL work items from GitLab 17.7 (where epics as
 * work items are on by default), else the REST Epics API, deprecated since 17.0 but the only one
 * older instances have.
 */
async function epicsOf(context: EpicContext): Promise<EpicBackend> {
  return atLeast(await instanceVersion(context.client, context.signal), 17, 7) ? workItemEpics : restEpics;
}

const dates = (epic: EpicView) => (epic.startDate || epic.dueDate ? ` (${epic.startDate ?? '?'} → ${epic.dueDate ?? '?'})` : '');

/** `gitlab_epic`: group epics and the issues in them (GitLab Premium). */
export const gitlabEpicSkill = defineGitLabSkill<GitLabEpicArguments>({
  name: 'gitlab_epic',
  title: 'GitLab epics',
  description: 'GitLab group epics (Premium; work items on GitLab 17.7+, REST before; group = full path).',
  scope: 'group',
  parameters: {
    type: 'object',
    properties: {
      iid: integer('Epic IID'),
      title: text(),
      description: text(),
      labels: texts(),
      start_date: date,
      due_date: date,
      parent_iid: integer('create/update: parent epic IID'),
      state: choice(['opened', 'closed', 'all'], 'List filter (default opened)'),
      author: text('List filter: username or "me"'),
      search: text(),
      issue_id: integer('add-issue, remove-issue: global issue id'),
      epic_issue_id: integer('remove-issue on the REST API: link id (instead of issue_id)'),
      limit,
    },
    required: ['group'],
  },
  actions: {
    list: {
      result: listOf('id', 'iid', 'title'),
      async run(context) {
        const backend = await epicsOf(context);
        const epics = await backend.list(context);
        const line = (epic: EpicView) => `${stateMark(epic.state)} &${epic.iid} ${epic.title}${dates(epic)}`;
        return reply(
          listText('epics', epics, line),
          epics.map((epic) => epic.raw),
        );
      },
    },
    get: {
      result: objectWith('id', 'iid', 'title'),
      required: ['iid'],
      async run(context) {
        const backend = await epicsOf(context);
        const epic = await backend.get(context);
        const output = detailText(
          `&${epic.iid} ${epic.title}`,
          [
            ['State', epic.state],
            ['Author', epic.author ? `@${epic.author}` : undefined],
            ['Start', epic.startDate],
            ['Due', epic.dueDate],
            ['Labels', epic.labels],
            ['Parent epic', epic.parent],
            ['URL', epic.webUrl],
            ['API', backend.api],
          ],
          epic.description || '(no description)',
        );
        return reply(output, epic.raw);
      },
    },
    create: { result: objectWith(), required: ['title'], run: async (context) => (await epicsOf(context)).create(context) },
    update: { result: objectWith(), required: ['iid'], run: async (context) => (await epicsOf(context)).update(context) },
    close: { result: objectWith(), required: ['iid'], run: async (context) => (await epicsOf(context)).setState(context, 'close') },
    reopen: { result: objectWith(), required: ['iid'], run: async (context) => (await epicsOf(context)).setState(context, 'reopen') },
    'add-issue': {
      result: objectWith(),
      required: ['iid', 'issue_id'],
      run: async (context) => (await epicsOf(context)).addIssue(context),
    },
    'remove-issue': {
      result: MAYBE_OBJECT,
      required: ['iid'],
      async run(context) {
        if (!context.args.issue_id && !context.args.epic_issue_id) {
          throw new InvalidParametersError('issue_id parameter required for remove-issue action.', { parameter: 'issue_id' });
        }
        return (await epicsOf(context)).removeIssue(context);
      },
    },
    'list-issues': {
      result: listOf('id', 'title'),
      required: ['iid'],
      async run(context) {
        const issues = await (await epicsOf(context)).listIssues(context);
        return reply(
          listText('issues', issues, (issue) => `${issue.reference} ${issue.title} (issue_id ${issue.id})`),
          issues.map((issue) => issue.raw),
        );
      },
    },
  },
});
