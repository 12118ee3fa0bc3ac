import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, shortSha, size } from '../format.js';
import { NOTHING, objectWith } from '../output-schema.js';
import { setIfPresent } from '../request-body.js';
import { choice, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** One change of a multi-file commit (GitLab's `actions[]`). */
interface CommitAction {
  action: string;
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: string;
}

/** Arguments of `gitlab_file`. */
export interface GitLabFileArguments extends GitLabArguments {
  file_path?: string;
  ref?: string;
  branch?: string;
  start_branch?: string;
  content?: string;
  encoding?: string;
  commit_message?: string;
  last_commit_id?: string;
  actions?: CommitAction[];
}

interface RepositoryFile {
  file_path: string;
  size: number;
  encoding: string;
  content: string;
  ref: string;
  last_commit_id?: string;
}

interface Commit {
  id: string;
  short_id?: string;
  title?: string;
  web_url?: string;
}

const ENCODINGS = ['text', 'base64'];

const actionsSchema = {
  type: 'array',
  description: 'commit: the changes, in order',
  items: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['create', 'update', 'delete', 'move', 'chmod'] },
      file_path: { type: 'string' },
      previous_path: { type: 'string', description: 'move: the old path' },
      content: { type: 'string' },
      encoding: { type: 'string', enum: ENCODINGS },
    },
    required: ['action', 'file_path'],
    additionalProperties: false,
  },
};

const filePath = (context: ActionContext<GitLabFileArguments>) =>
  `${context.base}/repository/files/${segment(context.args.file_path ?? '', 'file_path')}`;

/** The commit fields of a file write: target branch, message, and where a new branch starts. */
function commitFields(args: GitLabFileArguments): JsonObject {
  const body: JsonObject = { branch: args.branch as string, commit_message: args.commit_message as string };
  setIfPresent(body, 'start_branch', args.start_branch);
  return body;
}

function writeFile(context: ActionContext<GitLabFileArguments>, method: 'POST' | 'PUT') {
  const { content, encoding, last_commit_id } = context.args;
  const body: JsonObject = { ...commitFields(context.args), content: content ?? '' };
  setIfPresent(body, 'encoding', encoding);
  if (method === 'PUT') setIfPresent(body, 'last_commit_id', last_commit_id);
  return context.send<{ file_path: string; branch: string }>(
    { method, path: filePath(context), body },
    (file) => `${method === 'POST' ? 'Created' : 'Updated'} ${file.file_path} on ${file.branch}.`,
  );
}

/** Text of a file unless it looks binary (a NUL byte in its first 8 KiB). */
function textOf(bytes: Buffer): string | undefined {
  return bytes.subarray(0, 8192).includes(0) ? undefined : bytes.toString('utf8');
}

/** `gitlab_file`: repository files — read, create, update, delete, and several changes in one commit. */
export const gitlabFileSkill = defineGitLabSkill<GitLabFileArguments>({
  name: 'gitlab_file',
  title: 'GitLab repository files',
  description: 'GitLab repository files: read, write, and commit several changes at once.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      file_path: text('Path in the repository, e.g. src/app.ts'),
      ref: text('get: branch, tag or SHA (default HEAD, the default branch)'),
      branch: text('Branch to commit to'),
      start_branch: text('Create branch from this one first'),
      content: text(),
      encoding: choice(ENCODINGS, 'content encoding (default text)'),
      commit_message: text(),
      last_commit_id: text('update: refuse if the file changed since this commit'),
      actions: actionsSchema,
    },
  },
  actions: {
    get: {
      result: objectWith('file_path', 'content'),
      required: ['file_path'],
      async run(context) {
        const file = await context.get<RepositoryFile>(filePath(context), { ref: context.args.ref || 'HEAD' });
        const bytes = Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8');
        const content = textOf(bytes);
        const output = detailText(
          file.file_path,
          [
            ['Ref', file.ref],
            ['Size', size(file.size)],
            ['Last commit', shortSha(file.last_commit_id)],
          ],
          content ?? '(binary file; content in data as base64)',
        );
        return reply(output, { ...file, ...(content === undefined ? {} : { content, encoding: 'text' }) });
      },
    },
    create: {
      result: objectWith('file_path', 'branch'),
      required: ['file_path', 'branch', 'commit_message', 'content'],
      run: (context) => writeFile(context, 'POST'),
    },
    update: {
      result: objectWith('file_path', 'branch'),
      required: ['file_path', 'branch', 'commit_message', 'content'],
      run: (context) => writeFile(context, 'PUT'),
    },
    delete: {
      result: NOTHING,
      required: ['file_path', 'branch', 'commit_message'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: filePath(context), body: commitFields(context.args) },
          () => `Deleted ${context.args.file_path} on ${context.args.branch}.`,
        ),
    },
    commit: {
      result: objectWith('id'),
      required: ['branch', 'commit_message', 'actions'],
      run: (context) =>
        context.send<Commit>(
          {
            method: 'POST',
            path: `${context.base}/repository/commits`,
            body: { ...commitFields(context.args), actions: context.args.actions as unknown as JsonObject[] },
          },
          (commit) =>
            `Committed ${context.args.actions?.length} change(s) to ${context.args.branch}: ${commit.short_id ?? shortSha(commit.id)} ${commit.title ?? ''}\n${commit.web_url ?? ''}`.trim(),
        ),
    },
  },
});
