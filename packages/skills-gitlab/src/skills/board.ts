import { InvalidParametersError, type JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText } from '../format.js';
import { followUpFailed } from '../gitlab-api-error.js';
import type { GitLabRequest } from '../gitlab-client.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { requireFields } from '../request-body.js';
import { integer, text, texts } from '../schema.js';

/** Arguments of `gitlab_board`. */
export interface GitLabBoardArguments extends GitLabArguments {
  board_id?: number;
  list_id?: number;
  name?: string;
  labels?: string[];
  label_id?: number;
  assignee_id?: number;
  milestone_id?: number;
  iteration_id?: number;
  position?: number;
}

interface BoardList {
  id: number;
  position?: number | null;
  list_type?: string;
  label?: { name: string } | null;
  assignee?: { username: string } | null;
  milestone?: { title: string } | null;
  iteration?: { title?: string | null; id: number } | null;
}

interface Board {
  id: number;
  name: string;
  web_url?: string;
  milestone?: { title: string } | null;
  iteration?: { title?: string | null } | null;
  assignee?: { username: string } | null;
  labels?: Array<{ name: string }>;
  lists?: BoardList[];
}

/** `#id: <label | @user | %milestone | *iteration | type> (position: n)`. */
function listLine(list: BoardList): string {
  const what =
    list.label?.name ??
    (list.assignee ? `@${list.assignee.username}` : undefined) ??
    (list.milestone ? `%${list.milestone.title}` : undefined) ??
    (list.iteration ? `*${list.iteration.title ?? list.iteration.id}` : undefined) ??
    list.list_type ??
    'list';
  return `#${list.id}: ${what} (position: ${list.position ?? '-'})`;
}

function boardFields(args: GitLabBoardArguments): JsonObject {
  const body: JsonObject = {};
  if (args.name) body.name = args.name;
  if (args.labels?.length) body.labels = args.labels.join(',');
  return body;
}

const boardPath = (context: ActionContext<GitLabBoardArguments>, suffix = '') => `${context.base}/boards/${context.args.board_id}${suffix}`;
const LIST_SCOPES = ['label_id', 'assignee_id', 'milestone_id', 'iteration_id'] as const;

const BOARD = objectWith('id');

/** `gitlab_board`: issue boards of a project or group, and their lists. */
export const gitlabBoardSkill = defineGitLabSkill<GitLabBoardArguments>({
  name: 'gitlab_board',
  title: 'GitLab issue boards',
  description: 'GitLab issue boards and board lists (project or group).',
  scope: 'project-or-group',
  parameters: {
    type: 'object',
    properties: {
      board_id: integer(),
      list_id: integer(),
      name: text('Board name (create: required)'),
      labels: texts('Board scope labels (Premium)'),
      label_id: integer('create-list: one of label_id/assignee_id/milestone_id/iteration_id'),
      assignee_id: integer(),
      milestone_id: integer(),
      iteration_id: integer(),
      position: integer(undefined, 0),
    },
  },
  actions: {
    list: {
      result: listOf('id'),
      async run(context) {
        const boards = await context.list<Board>(`${context.base}/boards`, {}, 100);
        return reply(
          listText('boards', boards, (board) => `#${board.id} ${board.name} (${board.lists?.length ?? 0} lists)`),
          boards,
        );
      },
    },
    get: {
      result: BOARD,
      required: ['board_id'],
      async run(context) {
        const board = await context.get<Board>(boardPath(context));
        const output = detailText(
          `${board.name} (#${board.id})`,
          [
            ['URL', board.web_url],
            ['Milestone', board.milestone?.title],
            ['Iteration', board.iteration?.title],
            ['Assignee', board.assignee ? `@${board.assignee.username}` : undefined],
            ['Labels', (board.labels ?? []).map((label) => label.name)],
          ],
          (board.lists ?? []).map(listLine).join('\n') || '(no lists)',
        );
        return reply(output, board);
      },
    },
    create: {
      result: BOARD,
      required: ['name'],
      run(context) {
        // GitLab creates a board from its name alone; the label scope is set by a following update.
        const { name, labels } = context.args;
        const create: GitLabRequest = { method: 'POST', path: `${context.base}/boards`, body: { name: name as string } };
        const scope: GitLabRequest | undefined = labels?.length
          ? { method: 'PUT', path: `${context.base}/boards/:board_id`, body: { labels: labels.join(',') } }
          : undefined;
        return context.change({
          requests: scope ? [create, scope] : [create],
          async perform() {
            const board = await context.client.request<Board>(create, context.signal);
            const summary = `Created board #${board.id} ${board.name}`;
            if (!scope) return reply(`${summary}.`, board);
            try {
              const scoped = await context.client.request<Board>({ ...scope, path: `${context.base}/boards/${board.id}` }, context.signal);
              return reply(`${summary}, scoped to labels ${labels?.join(', ')}.`, scoped);
            } catch (error) {
              throw followUpFailed(summary, 'scoping it to labels (Premium)', error, { board });
            }
          },
        });
      },
    },
    update: {
      result: BOARD,
      required: ['board_id'],
      run: (context) =>
        context.send<Board>(
          { method: 'PUT', path: boardPath(context), body: requireFields(boardFields(context.args)) },
          (board) => `Updated board #${board.id} ${board.name}.`,
        ),
    },
    delete: {
      result: NOTHING,
      required: ['board_id'],
      run: (context) => context.send({ method: 'DELETE', path: boardPath(context) }, () => `Deleted board #${context.args.board_id}.`),
    },
    'list-lists': {
      result: listOf('id'),
      required: ['board_id'],
      async run(context) {
        const lists = await context.list<BoardList>(boardPath(context, '/lists'), {}, 100);
        return reply(listText('board lists', lists, listLine), lists);
      },
    },
    'create-list': {
      result: objectWith('id'),
      required: ['board_id'],
      run(context) {
        const given = LIST_SCOPES.filter((field) => context.args[field] !== undefined);
        if (given.length !== 1) {
          throw new InvalidParametersError(
            `create-list needs exactly one of ${LIST_SCOPES.join(', ')}; got ${given.length ? given.join(', ') : 'none'}.`,
            { parameter: 'label_id' },
          );
        }
        const field = given[0] as (typeof LIST_SCOPES)[number];
        return context.send<BoardList>(
          { method: 'POST', path: boardPath(context, '/lists'), body: { [field]: context.args[field] as number } },
          (list) => `Created list ${listLine(list)} on board #${context.args.board_id}.`,
        );
      },
    },
    'update-list': {
      result: objectWith('id'),
      required: ['board_id', 'list_id', 'position'],
      run: (context) =>
        context.send<BoardList>(
          {
            method: 'PUT',
            path: boardPath(context, `/lists/${context.args.list_id}`),
            body: { position: context.args.position as number },
          },
          (list) => `Moved list ${listLine(list)}.`,
        ),
    },
    'delete-list': {
      result: NOTHING,
      required: ['board_id', 'list_id'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: boardPath(context, `/lists/${context.args.list_id}`) },
          () => `Deleted list #${context.args.list_id} from board #${context.args.board_id}.`,
        ),
    },
  },
});
