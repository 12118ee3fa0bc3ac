import { InvalidParametersError, type JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { diffPosition } from '../diff-position.js';
import { day, listText, preview } from '../format.js';
import { listOf, objectWith } from '../output-schema.js';
import { choice, integer, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_discussion`. */
export interface GitLabDiscussionArguments extends GitLabArguments {
  target_type: 'mr' | 'issue';
  iid: number;
  discussion_id?: string;
  body?: string;
  path?: string;
  line?: number;
}

interface Note {
  id: number;
  body: string;
  author?: { username: string };
  created_at?: string;
  resolvable?: boolean;
  resolved?: boolean;
  position?: { new_path?: string; old_path?: string; new_line?: number | null; old_line?: number | null } | null;
}

interface Discussion {
  id: string;
  notes?: Note[];
}

function ownerPath(context: ActionContext<GitLabDiscussionArguments>): string {
  const kind = context.args.target_type === 'mr' ? 'merge_requests' : 'issues';
  return `${context.base}/${kind}/${context.args.iid}`;
}

const threadsPath = (context: ActionContext<GitLabDiscussionArguments>, suffix = '') => `${ownerPath(context)}/discussions${suffix}`;
const threadId = (context: ActionContext<GitLabDiscussionArguments>) => `/${segment(context.args.discussion_id ?? '', 'discussion_id')}`;

function status(discussion: Discussion): string {
  const resolvable = (discussion.notes ?? []).filter((note) => note.resolvable);
  if (resolvable.length === 0) return '';
  return resolvable.every((note) => note.resolved) ? 'resolved' : 'unresolved';
}

function setResolved(context: ActionContext<GitLabDiscussionArguments>, resolved: boolean) {
  if (context.args.target_type !== 'mr') {
    throw new InvalidParametersError(`${context.args.action} is only available for MR discussions.`, { parameter: 'target_type' });
  }
  return context.send<Discussion>(
    { method: 'PUT', path: threadsPath(context, threadId(context)), body: { resolved } },
    (discussion) => `Discussion ${discussion.id} is now ${resolved ? 'resolved' : 'unresolved'}.`,
  );
}

const DISCUSSION = objectWith('id', 'notes');

/** `gitlab_discussion`: discussion threads on merge requests and issues. */
export const gitlabDiscussionSkill = defineGitLabSkill<GitLabDiscussionArguments>({
  name: 'gitlab_discussion',
  title: 'GitLab discussions',
  description: 'GitLab discussion threads on an MR or issue.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      target_type: choice(['mr', 'issue']),
      iid: integer(),
      discussion_id: text(),
      body: text(),
      path: text('create on MR: file for a line comment (with line)'),
      line: integer('Line in the new file'),
    },
    required: ['target_type', 'iid'],
  },
  actions: {
    list: {
      result: listOf('id', 'notes'),
      async run(context) {
        const discussions = await context.list<Discussion>(threadsPath(context), {}, 100);
        const line = (discussion: Discussion) => {
          const first = discussion.notes?.[0];
          const state = status(discussion);
          return `${discussion.id} (${discussion.notes?.length ?? 0} notes${state ? `, ${state}` : ''}) @${first?.author?.username ?? '?'}: ${preview(first?.body, 60)}`;
        };
        return reply(listText('discussions', discussions, line), discussions);
      },
    },
    get: {
      result: DISCUSSION,
      required: ['discussion_id'],
      async run(context) {
        const discussion = await context.get<Discussion>(threadsPath(context, threadId(context)));
        const notes = (discussion.notes ?? []).map((note) => {
          const position = note.position
            ? ` [on ${note.position.new_path ?? note.position.old_path}:${note.position.new_line ?? note.position.old_line ?? '?'}]`
            : '';
          return `@${note.author?.username ?? '?'} ${day(note.created_at)}${position}:\n${note.body}`;
        });
        const state = status(discussion);
        return reply([`# Discussion ${discussion.id}${state ? ` (${state})` : ''}`, ...notes].join('\n\n'), discussion);
      },
    },
    create: {
      result: DISCUSSION,
      required: ['body'],
      async run(context) {
        const { body, path, line, target_type: targetType } = context.args;
        let position: JsonObject | undefined;
        if (targetType === 'mr' && (path || line)) {
          if (!path)
            throw new InvalidParametersError('path parameter required for a line comment (line was given).', { parameter: 'path' });
          if (!line)
            throw new InvalidParametersError('line parameter required for a line comment (path was given).', { parameter: 'line' });
          position = await diffPosition(context, ownerPath(context), { path, line });
        }
        return context.send<Discussion>(
          { method: 'POST', path: threadsPath(context), body: { body: body as string, ...(position ? { position } : {}) } },
          (discussion) => `Started discussion ${discussion.id}${position ? ` on ${path}:${line}` : ''}.`,
        );
      },
    },
    reply: {
      result: objectWith('id', 'body'),
      required: ['discussion_id', 'body'],
      run: (context) =>
        context.send<Note>(
          { method: 'POST', path: threadsPath(context, `${threadId(context)}/notes`), body: { body: context.args.body as string } },
          (note) => `Replied to discussion ${context.args.discussion_id} (note ${note.id}).`,
        ),
    },
    resolve: { result: DISCUSSION, required: ['discussion_id'], run: (context) => setResolved(context, true) },
    unresolve: { result: DISCUSSION, required: ['discussion_id'], run: (context) => setResolved(context, false) },
  },
});
