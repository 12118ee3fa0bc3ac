import { ACCESS_LEVEL_NAMES, accessLevel, accessLevelNames } from '../access-levels.js';
import { defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { day, detailText, listText, shortSha } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { choice, DEFAULT_LIMIT, flag, limit, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_branch`. */
export interface GitLabBranchArguments extends GitLabArguments {
  name?: string;
  ref?: string;
  search?: string;
  push_level?: string;
  merge_level?: string;
  allow_force_push?: boolean;
  limit?: number;
}

interface Branch {
  name: string;
  default?: boolean;
  protected?: boolean;
  merged?: boolean;
  developers_can_push?: boolean;
  developers_can_merge?: boolean;
  web_url?: string;
  commit?: { id: string; author_name?: string; author_email?: string; committed_date?: string; title?: string };
}

interface ProtectedBranch {
  name: string;
  push_access_levels?: Array<{ access_level: number }>;
  merge_access_levels?: Array<{ access_level: number }>;
  allow_force_push?: boolean;
}

const yesNo = (value: boolean | undefined) => (value ? 'yes' : 'no');

const BRANCH = objectWith('name');

/** `gitlab_branch`: branches and branch protection. */
export const gitlabBranchSkill = defineGitLabSkill<GitLabBranchArguments>({
  name: 'gitlab_branch',
  title: 'GitLab branches',
  description: 'GitLab branches and branch protection.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      name: text('Branch name (protect/unprotect: name or wildcard)'),
      ref: text('create: branch, tag or SHA to start from'),
      search: text(),
      push_level: choice(ACCESS_LEVEL_NAMES, 'protect (default maintainer)'),
      merge_level: choice(ACCESS_LEVEL_NAMES, 'protect (default maintainer)'),
      allow_force_push: flag(),
      limit,
    },
  },
  actions: {
    list: {
      result: listOf('name'),
      async run(context) {
        const branches = await context.list<Branch>(
          `${context.base}/repository/branches`,
          { search: context.args.search },
          context.args.limit ?? DEFAULT_LIMIT,
        );
        const line = (branch: Branch) =>
          `${branch.name}${branch.default ? ' (default)' : ''}${branch.protected ? ' [protected]' : ''}${branch.merged ? ' [merged]' : ''} ${shortSha(branch.commit?.id)} ${branch.commit?.author_name ?? ''}`.trimEnd();
        return reply(listText('branches', branches, line), branches);
      },
    },
    get: {
      result: BRANCH,
      required: ['name'],
      async run(context) {
        const branch = await context.get<Branch>(`${context.base}/repository/branches/${segment(context.args.name ?? '', 'name')}`);
        const { commit } = branch;
        const output = detailText(branch.name, [
          ['Default', yesNo(branch.default)],
          ['Protected', yesNo(branch.protected)],
          ['Merged', yesNo(branch.merged)],
          ['Developers can push', yesNo(branch.developers_can_push)],
          ['Developers can merge', yesNo(branch.developers_can_merge)],
          [
            'Latest commit',
            commit
              ? `${shortSha(commit.id, 12)} by ${commit.author_name ?? '?'} <${commit.author_email ?? '?'}> on ${day(commit.committed_date)}`
              : undefined,
          ],
          ['Title', commit?.title],
          ['URL', branch.web_url],
        ]);
        return reply(output, branch);
      },
    },
    create: {
      result: BRANCH,
      required: ['name', 'ref'],
      run: (context) =>
        context.send<Branch>(
          {
            method: 'POST',
            path: `${context.base}/repository/branches`,
            body: { branch: context.args.name as string, ref: context.args.ref as string },
          },
          (branch) => `Created branch ${branch.name} from ${context.args.ref} at ${shortSha(branch.commit?.id)}.`,
        ),
    },
    delete: {
      result: NOTHING,
      required: ['name'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: `${context.base}/repository/branches/${segment(context.args.name ?? '', 'name')}` },
          () => `Deleted branch ${context.args.name}.`,
        ),
    },
    protect: {
      result: objectWith('name'),
      required: ['name'],
      run(context) {
        const { name, push_level, merge_level, allow_force_push = false } = context.args;
        const body = {
          name: name as string,
          push_access_level: accessLevel(push_level),
          merge_access_level: accessLevel(merge_level),
          allow_force_push,
        };
        return context.send<ProtectedBranch>(
          { method: 'POST', path: `${context.base}/protected_branches`, body },
          (rule) =>
            `Protected ${rule.name}: push ${accessLevelNames(rule.push_access_levels)}, merge ${accessLevelNames(rule.merge_access_levels)}, force push ${yesNo(rule.allow_force_push)}.`,
        );
      },
    },
    unprotect: {
      result: NOTHING,
      required: ['name'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: `${context.base}/protected_branches/${segment(context.args.name ?? '', 'name')}` },
          () => `Removed protection from ${context.args.name}.`,
        ),
    },
    'list-protected': {
      result: listOf('name'),
      async run(context) {
        const rules = await context.list<ProtectedBranch>(`${context.base}/protected_branches`, {}, context.args.limit ?? DEFAULT_LIMIT);
        const line = (rule: ProtectedBranch) =>
          `${rule.name}: push ${accessLevelNames(rule.push_access_levels)}; merge ${accessLevelNames(rule.merge_access_levels)}; force push ${yesNo(rule.allow_force_push)}`;
        return reply(listText('protected branches', rules, line), rules);
      },
    },
  },
});
