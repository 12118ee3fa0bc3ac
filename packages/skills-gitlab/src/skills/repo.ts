import { accessLevelName } from '../access-levels.js';
import type { GitLabArguments } from '../define-gitlab-skill.js';
import { defineGitLabSkill, reply } from '../define-gitlab-skill.js';
import { changeLines, type FileDiff } from '../diff-stats.js';
import { day, detailText, listText, preview, shortSha } from '../format.js';
import { listOf, objectWith } from '../output-schema.js';
import { DEFAULT_LIMIT, flag, limit, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_repo`. */
export interface GitLabRepoArguments extends GitLabArguments {
  owned?: boolean;
  membership?: boolean;
  search?: string;
  namespace?: string;
  limit?: number;
  path?: string;
  ref?: string;
  recursive?: boolean;
  sha?: string;
  from?: string;
  to?: string;
  since?: string;
  until?: string;
}

interface TreeEntry {
  name: string;
  path: string;
  type: string;
}

interface Commit {
  id: string;
  short_id?: string;
  title?: string;
  message?: string;
  author_name?: string;
  author_email?: string;
  committed_date?: string;
  parent_ids?: string[];
  stats?: { additions: number; deletions: number; total: number };
  web_url?: string;
}

interface Comparison {
  commits: Commit[];
  diffs: FileDiff[];
  compare_same_ref?: boolean;
  compare_timeout?: boolean;
  web_url?: string;
}

interface Member {
  username: string;
  name?: string;
  access_level: number;
  expires_at?: string | null;
}

interface Project {
  id: number;
  name: string;
  path_with_namespace: string;
  visibility?: string;
  default_branch?: string;
  description?: string | null;
  topics?: string[];
  star_count?: number;
  forks_count?: number;
  open_issues_count?: number;
  http_url_to_repo?: string;
  ssh_url_to_repo?: string;
  web_url?: string;
}

const COMMIT_LINE = (commit: Commit) =>
  `${commit.short_id ?? shortSha(commit.id)} ${day(commit.committed_date)} ${commit.author_name ?? ''}: ${commit.title ?? ''}`;

/** `gitlab_repo`: projects (view, list, search, fork, members), their tree, commits and comparisons; who the token belongs to. */
export const gitlabRepoSkill = defineGitLabSkill<GitLabRepoArguments>({
  name: 'gitlab_repo',
  title: 'GitLab projects',
  description: 'GitLab projects, their tree, commits, comparisons and members, and your identity.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      owned: flag('list: only yours'),
      membership: flag('list: only where you are a member'),
      search: text(),
      namespace: text('fork: target namespace path'),
      limit,
      path: text('tree, commits: path in the repository'),
      ref: text('tree, commits: branch, tag or SHA (default: default branch)'),
      recursive: flag('tree: all levels'),
      sha: text('get-commit: commit SHA'),
      from: text('compare: base branch, tag or SHA'),
      to: text('compare: head branch, tag or SHA'),
      since: text('commits: ISO 8601 date'),
      until: text('commits: ISO 8601 date'),
    },
  },
  actions: {
    get: {
      result: objectWith('id', 'path_with_namespace'),
      async run(context) {
        const project = await context.get<Project>(context.base);
        const output = detailText(project.path_with_namespace, [
          ['Name', project.name],
          ['ID', project.id],
          ['Visibility', project.visibility],
          ['Default branch', project.default_branch],
          ['Description', project.description],
          ['Topics', project.topics],
          ['Stars / forks / open issues', `${project.star_count ?? 0} / ${project.forks_count ?? 0} / ${project.open_issues_count ?? 0}`],
          ['Clone (HTTPS)', project.http_url_to_repo],
          ['Clone (SSH)', project.ssh_url_to_repo],
          ['URL', project.web_url],
        ]);
        return reply(output, project);
      },
    },
    list: {
      result: listOf('id', 'path_with_namespace'),
      scope: 'none',
      async run(context) {
        const { owned, membership, search, limit: max } = context.args;
        const query = { owned: owned || undefined, membership: membership || undefined, search, order_by: 'last_activity_at' };
        const projects = await context.list<Project>('/projects', query, max ?? DEFAULT_LIMIT);
        return reply(
          listText('projects', projects, (project) => `[${project.visibility ?? '?'}] ${project.path_with_namespace}`),
          projects,
        );
      },
    },
    search: {
      result: listOf('id', 'path_with_namespace'),
      scope: 'none',
      required: ['search'],
      async run(context) {
        const projects = await context.list<Project>('/projects', { search: context.args.search }, context.args.limit ?? DEFAULT_LIMIT);
        const line = (project: Project) =>
          `${project.path_with_namespace}${project.description ? ` — ${preview(project.description, 50)}` : ''}`;
        return reply(listText('projects', projects, line), projects);
      },
    },
    fork: {
      result: objectWith('id', 'path_with_namespace'),
      run: (context) =>
        context.send<Project>(
          {
            method: 'POST',
            path: `${context.base}/fork`,
            ...(context.args.namespace ? { body: { namespace_path: context.args.namespace } } : {}),
          },
          (fork) => `Forked to ${fork.path_with_namespace}\n${fork.web_url ?? ''}`.trim(),
        ),
    },
    tree: {
      result: listOf('id', 'name', 'type', 'path'),
      async run(context) {
        const { path, ref, recursive, limit: max } = context.args;
        const entries = await context.list<TreeEntry>(
          `${context.base}/repository/tree`,
          { path, ref, recursive: recursive || undefined },
          max ?? 100,
        );
        return reply(
          listText('entries', entries, (entry) => `${entry.type === 'tree' ? `${entry.path}/` : entry.path}`),
          entries,
        );
      },
    },
    commits: {
      result: listOf('id'),
      async run(context) {
        const { ref, path, since, until, limit: max } = context.args;
        const commits = await context.list<Commit>(
          `${context.base}/repository/commits`,
          { ref_name: ref, path, since, until },
          max ?? DEFAULT_LIMIT,
        );
        return reply(listText('commits', commits, COMMIT_LINE), commits);
      },
    },
    'get-commit': {
      result: objectWith('commit', 'diffs'),
      required: ['sha'],
      async run(context) {
        const path = `${context.base}/repository/commits/${segment(context.args.sha ?? '', 'sha')}`;
        const commit = await context.get<Commit>(path);
        const diffs = await context.list<FileDiff>(`${path}/diff`, {}, 1000);
        const output = detailText(
          `${shortSha(commit.id, 12)} ${commit.title ?? ''}`,
          [
            ['Author', `${commit.author_name ?? '?'} <${commit.author_email ?? '?'}>`],
            ['Date', commit.committed_date],
            ['Parents', (commit.parent_ids ?? []).map((id) => shortSha(id))],
            ['Stats', commit.stats ? `+${commit.stats.additions}/-${commit.stats.deletions}` : undefined],
            ['URL', commit.web_url],
          ],
          [commit.message?.trim() ?? '', '', ...changeLines(diffs)].join('\n'),
        );
        return reply(output, { commit, diffs });
      },
    },
    compare: {
      result: objectWith('commits', 'diffs'),
      required: ['from', 'to'],
      async run(context) {
        const { from, to } = context.args as Required<Pick<GitLabRepoArguments, 'from' | 'to'>>;
        const comparison = await context.get<Comparison>(`${context.base}/repository/compare`, { from, to });
        const output = comparison.compare_same_ref
          ? `${from} and ${to} are the same.`
          : [
              `${from}...${to}: ${comparison.commits.length} commit(s), ${comparison.diffs.length} file(s)${comparison.compare_timeout ? ' (GitLab timed out; the diff is incomplete)' : ''}`,
              ...comparison.commits.map(COMMIT_LINE),
              '',
              ...changeLines(comparison.diffs),
            ].join('\n');
        return reply(output, comparison);
      },
    },
    members: {
      result: listOf('id', 'username'),
      async run(context) {
        const members = await context.list<Member>(
          `${context.base}/members/all`,
          { query: context.args.search },
          context.args.limit ?? 100,
        );
        const line = (member: Member) =>
          `@${member.username}${member.name ? ` (${member.name})` : ''}: ${accessLevelName(member.access_level)}${member.expires_at ? `, until ${member.expires_at}` : ''}`;
        return reply(listText('members', members, line), members);
      },
    },
    whoami: {
      result: objectWith('configured', 'user'),
      scope: 'none',
      async run(context) {
        const { username, email, userId } = context.client.instance;
        const configured =
          username || email || userId !== undefined
            ? [
                `Configured identity: ${[username && `@${username}`, email, userId !== undefined && `id ${userId}`].filter(Boolean).join(', ')}`,
              ]
            : ['Configured identity: none (set username, email or userId on the instance for "me")'];
        const user = await context.users.currentUser(context.signal);
        const output = detailText(`GitLab instance '${context.client.name}'`, [
          ['Username', `@${user.username}`],
          ['Name', user.name],
          ['ID', user.id],
          ['Email', user.email ?? user.public_email],
          ['Profile', user.web_url],
        ]);
        return reply(`${output}\n${configured.join('\n')}`, {
          configured: { username: username ?? null, email: email ?? null, user_id: userId ?? null },
          user,
        });
      },
    },
  },
});
