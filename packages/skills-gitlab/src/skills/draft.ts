import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { diffPosition } from '../diff-position.js';
import { listText, preview } from '../format.js';
import { listOf, MAYBE_OBJECT, NOTHING, objectWith } from '../output-schema.js';
import { choice, integer, text } from '../schema.js';

/** Arguments of `gitlab_draft`. */
export interface GitLabDraftArguments extends GitLabArguments {
  iid: number;
  draft_id?: number;
  body?: string;
  path?: string;
  line?: number;
  line_type?: 'new' | 'old';
}

interface DraftNote {
  id: number;
  note: string;
  position?: { new_path?: string; old_path?: string; new_line?: number | null; old_line?: number | null } | null;
}

const mrPath = (context: ActionContext<GitLabDraftArguments>) => `${context.base}/merge_requests/${context.args.iid}`;
const draftsPath = (context: ActionContext<GitLabDraftArguments>, suffix = '') => `${mrPath(context)}/draft_notes${suffix}`;

function where(note: DraftNote): string {
  const position = note.position;
  if (!position) return '';
  return ` [${position.new_path ?? position.old_path}:${position.new_line ?? position.old_line ?? '?'}]`;
}

const DRAFT = objectWith('id');

/** `gitlab_draft`: draft notes of a merge request, published together as one review. */
export const gitlabDraftSkill = defineGitLabSkill<GitLabDraftArguments>({
  name: 'gitlab_draft',
  title: 'GitLab draft notes',
  description: 'GitLab MR draft notes for a batched review; publish sends them all.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      iid: integer('MR IID'),
      draft_id: integer(),
      body: text(),
      path: text('add: file for a line comment (with line)'),
      line: integer(),
      line_type: choice(['new', 'old'], 'Line in the new (default) or old file'),
    },
    required: ['iid'],
  },
  actions: {
    list: {
      result: listOf('id'),
      async run(context) {
        const notes = await context.list<DraftNote>(draftsPath(context), {}, 100);
        return reply(
          listText('draft notes', notes, (note) => `#${note.id}${where(note)}: ${preview(note.note, 80)}`),
          notes,
        );
      },
    },
    add: {
      result: DRAFT,
      required: ['body'],
      async run(context) {
        const { body, path, line, line_type: lineType } = context.args;
        const position = await diffPosition(context, mrPath(context), { path, line, lineType });
        const request: JsonObject = { note: body as string, ...(position ? { position } : {}) };
        return context.send<DraftNote>(
          { method: 'POST', path: draftsPath(context), body: request },
          (note) => `Added draft note #${note.id}${where(note)} to MR !${context.args.iid}.`,
        );
      },
    },
    update: {
      result: DRAFT,
      required: ['draft_id', 'body'],
      run: (context) =>
        context.send<DraftNote>(
          { method: 'PUT', path: draftsPath(context, `/${context.args.draft_id}`), body: { note: context.args.body as string } },
          (note) => `Updated draft note #${note.id}.`,
        ),
    },
    delete: {
      result: NOTHING,
      required: ['draft_id'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: draftsPath(context, `/${context.args.draft_id}`) },
          () => `Deleted draft note #${context.args.draft_id}.`,
        ),
    },
    publish: {
      result: MAYBE_OBJECT,
      run: (context) =>
        context.send(
          { method: 'POST', path: draftsPath(context, '/bulk_publish') },
          () => `Published all draft notes of MR !${context.args.iid}.`,
        ),
    },
  },
});
