import { detailText, listText, preview } from '../format.js';
import type { GitLabArguments } from '../gitlab-skill.js';
import { defineGitLabSkill, reply } from '../gitlab-skill.js';
import { DEFAULT_LIMIT, flag, limit, text } from '../schema.js';

/** Arguments of `gitlab_repo`. */
interface GitLabRepoArguments extends GitLabArguments {
  owned?: boolean;
  membership?: boolean;
  search?: string;
  namespace?: string;
  limit?: number;
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

/** `gitlab_repo`: view, list, search and fork projects; show who the token belongs to. */
export const gitlabRepoSkill = defineGitLabSkill<GitLabRepoArguments>({
  name: 'gitlab_repo',
  summary: 'GitLab projects and your identity.',
  scope: 'project',
  properties: {
    owned: flag('list: only yours'),
    membership: flag('list: only where you are a member'),
    search: text(),
    namespace: text('fork: target namespace path'),
    limit,
  },
  actions: {
    get: {
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
    whoami: {
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
