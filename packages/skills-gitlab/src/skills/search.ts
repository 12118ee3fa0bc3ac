import { defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { listText, preview } from '../format.js';
import { listOf } from '../output-schema.js';
import { choice, DEFAULT_LIMIT, limit, text } from '../schema.js';

/** Arguments of `gitlab_search`. */
export interface GitLabSearchArguments extends GitLabArguments {
  scope?: string;
  search?: string;
  ref?: string;
  state?: string;
  limit?: number;
}

/** The search scopes GitLab documents (search.md); code, commits, wikis and notes need advanced search outside a project. */
const SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'users', 'blobs', 'commits', 'wiki_blobs', 'notes', 'snippet_titles'];

type Hit = Record<string, unknown> & {
  references?: { full?: string };
  path_with_namespace?: string;
  title?: string;
  name?: string;
  username?: string;
  short_id?: string;
  path?: string;
  startline?: number;
  data?: string;
  body?: string;
  noteable_type?: string;
  state?: string;
};

/** One line per hit, in the words of its scope. */
function hitLine(scope: string, hit: Hit): string {
  switch (scope) {
    case 'projects':
      return String(hit.path_with_namespace);
    case 'issues':
    case 'merge_requests':
      return `[${hit.state}] ${hit.references?.full ?? ''} ${hit.title}`;
    case 'users':
      return `@${hit.username} (${hit.name})`;
    case 'commits':
      return `${hit.short_id} ${hit.title}`;
    case 'blobs':
    case 'wiki_blobs':
      return `${hit.path}:${hit.startline}: ${preview(hit.data, 120)}`;
    case 'notes':
      return `${hit.noteable_type}: ${preview(hit.body, 120)}`;
    default:
      return String(hit.title ?? hit.name ?? hit.path);
  }
}

/** `gitlab_search`: GitLab's search — the whole instance, a group, or a project. */
export const gitlabSearchSkill = defineGitLabSkill<GitLabSearchArguments>({
  name: 'gitlab_search',
  title: 'GitLab search',
  description: 'GitLab search across the instance, a group or a project (project/group omitted: whole instance).',
  scope: 'anywhere',
  parameters: {
    type: 'object',
    properties: {
      scope: choice(SCOPES, 'What to search (blobs, commits, notes, wiki_blobs: in a project, or with advanced search)'),
      search: text('Search terms'),
      ref: text('Project blobs/commits: branch or tag'),
      state: choice(['opened', 'closed'], 'issues, merge_requests filter'),
      limit,
    },
  },
  actions: {
    search: {
      result: listOf(),
      required: ['scope', 'search'],
      async run(context) {
        const {
          scope,
          search,
          ref,
          state,
          limit: max,
        } = context.args as Required<Pick<GitLabSearchArguments, 'scope' | 'search'>> & GitLabSearchArguments;
        const hits = await context.list<Hit>(`${context.base}/search`, { scope, search, ref, state }, max ?? DEFAULT_LIMIT);
        return reply(
          listText(`${scope.replace('_', ' ')} in ${context.target.label}`, hits, (hit) => hitLine(scope, hit)),
          hits,
        );
      },
    },
  },
});
