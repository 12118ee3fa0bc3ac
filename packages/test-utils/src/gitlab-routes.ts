import { zipSync } from 'fflate';
import * as fixture from './gitlab-fixtures.js';
import type { ListPaging, ParamSpec, RouteRequest, StandInRoute } from './gitlab-server.js';

// Every route carries the parameters GitLab documents for it (doc/api/<page>.md, named above each
// group of routes); the server refuses a request missing a required one or sending one not listed.

type Factory = (id: string, request: RouteRequest) => object;
type Verb = 'list' | 'get' | 'create' | 'update' | 'delete';

interface CollectionOptions {
  /** The verbs that exist and their documented parameters. */
  verbs: Partial<Record<Verb, ParamSpec>>;
  /** Ids listed by GET on the collection (default 1, 2, 3). */
  ids?: readonly string[];
  /** Id of a created item (default 4). */
  createdId?: string;
  /** Name of the item's path parameter (default `id`). */
  idParam?: string;
  /** How GitLab pages the list (default `offset`). */
  listPaging?: ListPaging;
}

function body(request: RouteRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
}

const STATE_EVENTS: Record<string, string> = { close: 'closed', reopen: 'opened', activate: 'active' };

/** An update's body applied to an item the way GitLab applies it: `state_event` and `new_name` take effect. */
function applyUpdate(item: object, request: RouteRequest): object {
  const { state_event: event, new_name: newName, ...fields } = body(request);
  return {
    ...item,
    ...fields,
    ...(typeof event === 'string' && STATE_EVENTS[event] ? { state: STATE_EVENTS[event] } : {}),
    ...(typeof newName === 'string' ? { name: newName } : {}),
  };
}

/** GET list / GET one / POST / PUT / DELETE routes of one REST collection. */
function collection(path: string, make: Factory, options: CollectionOptions): StandInRoute[] {
  const { ids = ['1', '2', '3'], createdId = '4', verbs, idParam = 'id', listPaging } = options;
  const item = `${path}/:${idParam}`;
  const routes: StandInRoute[] = [];
  if (verbs.list) routes.push(get(path, verbs.list, (request) => ({ paginated: ids.map((id) => make(id, request)) }), listPaging));
  if (verbs.get) routes.push(get(item, verbs.get, (request) => make(request.params[idParam] as string, request)));
  if (verbs.create) routes.push(post(path, verbs.create, (request) => ({ ...make(createdId, request), ...body(request) })));
  if (verbs.update)
    routes.push(put(item, verbs.update, (request) => applyUpdate(make(request.params[idParam] as string, request), request)));
  if (verbs.delete) routes.push(del(item, verbs.delete, noContent));
  return routes;
}

function get(pattern: string, params: ParamSpec, handler: (request: RouteRequest) => unknown, paging?: ListPaging): StandInRoute {
  return { method: 'GET', pattern, params, handler, ...(paging ? { paging } : {}) };
}

function post(pattern: string, params: ParamSpec, handler: (request: RouteRequest) => unknown): StandInRoute {
  return { method: 'POST', pattern, params, handler };
}

function put(pattern: string, params: ParamSpec, handler: (request: RouteRequest) => unknown): StandInRoute {
  return { method: 'PUT', pattern, params, handler };
}

function del(pattern: string, params: ParamSpec, handler: (request: RouteRequest) => unknown): StandInRoute {
  return { method: 'DELETE', pattern, params, handler };
}

/** A route whose handler replaces the created item's fields with the request's (`create` answers differ per collection). */
function withCreate(routes: StandInRoute[], handler: (request: RouteRequest) => unknown): StandInRoute[] {
  return routes.map((route) => (route.method === 'POST' ? { ...route, handler } : route));
}

const NONE: ParamSpec = {};
const noContent = (): undefined => undefined;
const projectOf = (request: RouteRequest): string => request.params.project ?? 'group/project';
const groupOf = (request: RouteRequest): string => request.params.group ?? 'group';
const numberOf = (value: string | undefined): number => Number(value ?? 1);

/** The zip archive every job's artifacts download returns. */
export function standInArtifactsZip(): Uint8Array {
  // A fixed time, so every build of the archive has the same bytes.
  return zipSync(
    {
      'report.txt': new TextEncoder().encode('all tests passed\n'),
      'coverage/index.html': new TextEncoder().encode('<html>87.5%</html>\n'),
      'coverage/lcov.info': new TextEncoder().encode('TN:\nSF:src/app.ts\nend_of_record\n'),
    },
    { mtime: new Date('2024-05-01T09:30:00Z') },
  );
}

const P = '/projects/:project';
const G = '/groups/:group';
const MR = `${P}/merge_requests/:iid`;
const ISSUE = `${P}/issues/:iid`;

// doc/api/issues.md, merge_requests.md: list filters.
const ISSUE_FILTERS = [
  'assignee_id',
  'assignee_username',
  'author_id',
  'author_username',
  'confidential',
  'created_after',
  'created_before',
  'due_date',
  'epic_id',
  'iids[]',
  'in',
  'issue_type',
  'iteration_id',
  'iteration_title',
  'labels',
  'milestone',
  'milestone_id',
  'my_reaction_emoji',
  'non_archived',
  'not',
  'order_by',
  'scope',
  'search',
  'sort',
  'state',
  'updated_after',
  'updated_before',
  'weight',
  'with_labels_details',
];
const MR_FILTERS = [
  'approved_by_ids',
  'approver_ids',
  'assignee_id',
  'assignee_username',
  'author_id',
  'author_username',
  'created_after',
  'created_before',
  'draft',
  'environment',
  'in',
  'labels',
  'milestone',
  'my_reaction_emoji',
  'not',
  'order_by',
  'reviewer_id',
  'reviewer_username',
  'scope',
  'search',
  'sort',
  'source_branch',
  'state',
  'target_branch',
  'updated_after',
  'updated_before',
  'view',
  'with_labels_details',
  'wip',
];

function timeTracking(base: string): StandInRoute[] {
  // doc/api/issues.md and merge_requests.md, "time tracking".
  return [
    post(`${base}/time_estimate`, { required: ['duration'] }, (request) => ({
      ...fixture.timeStats(),
      human_time_estimate: String(body(request).duration),
    })),
    post(`${base}/reset_time_estimate`, NONE, () => ({ ...fixture.timeStats(), time_estimate: 0, human_time_estimate: null })),
    post(`${base}/add_spent_time`, { required: ['duration'], optional: ['summary'] }, () => ({
      ...fixture.timeStats(),
      total_time_spent: 5400,
      human_total_time_spent: '1h 30m',
    })),
    post(`${base}/reset_spent_time`, NONE, () => ({ ...fixture.timeStats(), total_time_spent: 0, human_total_time_spent: null })),
    get(`${base}/time_stats`, NONE, () => fixture.timeStats()),
  ];
}

function discussions(base: string, noteableType: string): StandInRoute[] {
  // doc/api/discussions.md
  const ids = ['6a9c1750b37d513a43987b574953fceb50b03ce7', '87805b7c09016a7058e91bdbe7b29d1f284a39e6'];
  const routes = [
    get(`${base}/discussions`, NONE, () => ({ paginated: ids.map((id, index) => fixture.discussion(id, index === 1)) })),
    get(`${base}/discussions/:id`, NONE, (request) => fixture.discussion(request.params.id as string)),
    post(
      `${base}/discussions`,
      { required: ['body'], optional: ['created_at', 'internal', ...(noteableType === 'MergeRequest' ? ['commit_id', 'position'] : [])] },
      (request) => ({
        ...fixture.discussion('f00dfacef00dfacef00dfacef00dfacef00dface'),
        notes: [fixture.note(950, String(body(request).body), noteableType)],
      }),
    ),
    post(`${base}/discussions/:id/notes`, { required: ['body'], optional: ['note_id', 'created_at'] }, (request) =>
      fixture.note(951, String(body(request).body), noteableType),
    ),
  ];
  if (noteableType === 'MergeRequest')
    routes.push(
      put(`${base}/discussions/:id`, { required: ['resolved'] }, (request) =>
        fixture.discussion(request.params.id as string, body(request).resolved === true),
      ),
    );
  return routes;
}

/** Options of {@link defaultGitLabRoutes}. */
export interface RouteOptions {
  /** What `GET /version` reports. */
  version: string;
}

const LABEL_FIELDS = ['description', 'priority'];
const FILE_WRITE = ['start_branch', 'encoding', 'author_email', 'author_name', 'execute_filemode'];
const SEARCH = ['confidential', 'state', 'order_by', 'sort'];

/** Every route the stand-in answers, below the API root. */
export function defaultGitLabRoutes(options: RouteOptions): StandInRoute[] {
  return [
    // version.md, users.md, projects.md, project_forks.md, members.md
    get('/version', NONE, () => ({ version: options.version, revision: 'a1b2c3d4' })),
    get('/user', NONE, () => fixture.currentUser()),
    get(
      '/users',
      { optional: ['username', 'search', 'active', 'blocked', 'external', 'humans', 'order_by', 'sort'] },
      (request) => ({
        paginated: Object.values(fixture.STAND_IN_USERS).filter((user) =>
          user.username.includes((request.query.username ?? '').toLowerCase()),
        ),
      }),
      // rest/_index.md: keyset paging; offset paging is not available on /users from GitLab 16.5.
      { keyset: { orderBy: ['id', 'name', 'username', 'created_at', 'updated_at'] } },
    ),
    get(
      '/projects',
      {
        optional: [
          'archived',
          'membership',
          'min_access_level',
          'order_by',
          'owned',
          'search',
          'search_namespaces',
          'simple',
          'sort',
          'starred',
          'statistics',
          'topic',
          'visibility',
          'with_issues_enabled',
          'with_merge_requests_enabled',
          'last_activity_after',
          'last_activity_before',
          'updated_after',
          'updated_before',
        ],
      },
      (request) => ({
        paginated: ['group/project', 'group/sub/tool', 'other/library']
          .filter((path) => path.includes(request.query.search ?? ''))
          .map((path, index) => fixture.project(path, 42 + index)),
      }),
      { keyset: { orderBy: ['id'], cursor: 'id_after' } },
    ),
    get(P, { optional: ['license', 'statistics', 'with_custom_attributes'] }, (request) => fixture.project(projectOf(request))),
    post(
      `${P}/fork`,
      { optional: ['branches', 'description', 'mr_default_target_self', 'name', 'namespace_id', 'namespace_path', 'path', 'visibility'] },
      (request) => fixture.project(`${String(body(request).namespace_path ?? 'alice')}/${projectOf(request).split('/').pop()}`, 77),
    ),
    get(`${P}/members/all`, { optional: ['query', 'user_ids', 'show_seat_info', 'state'] }, () => ({ paginated: fixture.members() })),

    // issues.md, notes.md, issue_links.md
    get('/issues', { optional: ISSUE_FILTERS }, () => ({
      paginated: [fixture.issue('group/project', 1), fixture.issue('other/library', 2)],
    })),
    ...collection(`${P}/issues`, (id, request) => fixture.issue(projectOf(request), numberOf(id)), {
      verbs: {
        list: { optional: ISSUE_FILTERS },
        get: NONE,
        create: {
          required: ['title'],
          optional: [
            'assignee_id',
            'assignee_ids',
            'confidential',
            'created_at',
            'description',
            'discussion_to_resolve',
            'due_date',
            'epic_id',
            'epic_iid',
            'iid',
            'issue_type',
            'labels',
            'merge_request_to_resolve_discussions_of',
            'milestone_id',
            'weight',
          ],
        },
        update: {
          optional: [
            'add_labels',
            'assignee_ids',
            'confidential',
            'description',
            'discussion_locked',
            'due_date',
            'epic_id',
            'epic_iid',
            'issue_type',
            'labels',
            'milestone_id',
            'remove_labels',
            'state_event',
            'title',
            'updated_at',
            'weight',
          ],
        },
      },
      createdId: '12',
      idParam: 'iid',
    }),
    post(`${ISSUE}/notes`, { required: ['body'], optional: ['confidential', 'internal', 'created_at'] }, (request) =>
      fixture.note(800, String(body(request).body)),
    ),
    get(`${ISSUE}/links`, NONE, () => [fixture.linkedIssue(5, 'relates_to'), fixture.linkedIssue(6, 'blocks')]),
    post(`${ISSUE}/links`, { required: ['target_project_id', 'target_issue_iid'], optional: ['link_type'] }, (request) => ({
      source_issue: fixture.issue(projectOf(request), numberOf(request.params.iid)),
      target_issue: fixture.issue('group/project', Number(body(request).target_issue_iid)),
      link_type: body(request).link_type ?? 'relates_to',
    })),
    del(`${ISSUE}/links/:link`, NONE, (request) => ({
      source_issue: fixture.issue(projectOf(request), numberOf(request.params.iid)),
      target_issue: fixture.issue('group/project', 5),
      link_type: 'relates_to',
    })),

    // merge_requests.md, notes.md
    get('/merge_requests', { optional: MR_FILTERS }, () => ({
      paginated: [fixture.mergeRequest('group/project', 1), fixture.mergeRequest('other/library', 2)],
    })),
    ...collection(`${P}/merge_requests`, (id, request) => fixture.mergeRequest(projectOf(request), numberOf(id)), {
      verbs: {
        list: { optional: MR_FILTERS },
        get: { optional: ['include_diverged_commits_count', 'include_rebase_in_progress', 'render_html'] },
        create: {
          required: ['source_branch', 'target_branch', 'title'],
          optional: [
            'allow_collaboration',
            'assignee_id',
            'assignee_ids',
            'description',
            'labels',
            'milestone_id',
            'remove_source_branch',
            'reviewer_ids',
            'squash',
            'target_project_id',
            'merge_after',
          ],
        },
        update: {
          optional: [
            'add_labels',
            'allow_collaboration',
            'assignee_id',
            'assignee_ids',
            'description',
            'discussion_locked',
            'labels',
            'milestone_id',
            'remove_labels',
            'remove_source_branch',
            'reviewer_ids',
            'squash',
            'state_event',
            'target_branch',
            'title',
            'merge_after',
          ],
        },
      },
      createdId: '15',
      idParam: 'iid',
    }),
    put(
      `${MR}/merge`,
      {
        optional: [
          'auto_merge',
          'merge_commit_message',
          'merge_when_pipeline_succeeds',
          'sha',
          'should_remove_source_branch',
          'squash_commit_message',
          'squash',
        ],
      },
      (request) => {
        const waits = body(request).merge_when_pipeline_succeeds === true || body(request).auto_merge === true;
        return {
          ...fixture.mergeRequest(projectOf(request), numberOf(request.params.iid)),
          ...(waits ? { merge_when_pipeline_succeeds: true } : { state: 'merged' }),
        };
      },
    ),
    put(`${MR}/rebase`, { optional: ['skip_ci'] }, () => ({ status: 202, body: { rebase_in_progress: true } })),
    post(`${MR}/cancel_merge_when_pipeline_succeeds`, NONE, (request) => ({
      ...fixture.mergeRequest(projectOf(request), numberOf(request.params.iid)),
      merge_when_pipeline_succeeds: false,
    })),
    post(`${MR}/notes`, { required: ['body'], optional: ['created_at', 'internal', 'merge_request_diff_head_sha'] }, (request) =>
      fixture.note(801, String(body(request).body), 'MergeRequest'),
    ),
    get(`${MR}/diffs`, { optional: ['unidiff'] }, () => ({ paginated: fixture.mergeRequestDiffs() })),
    get(`${MR}/commits`, NONE, () => ({ paginated: [fixture.commit(1), fixture.commit(2)] })),
    get(`${MR}/pipelines`, NONE, () => ({ paginated: [fixture.pipeline(501), fixture.pipeline(500)] })),

    // labels.md
    ...withCreate(
      collection(`${P}/labels`, (name) => fixture.label(name), {
        verbs: {
          list: { optional: ['with_counts', 'include_ancestor_groups', 'search', 'archived'] },
          get: { optional: ['include_ancestor_groups'] },
          create: { required: ['name', 'color'], optional: LABEL_FIELDS },
          update: { optional: ['new_name', 'color', ...LABEL_FIELDS] },
          delete: NONE,
        },
        ids: ['bug', 'feature', 'needs review'],
      }),
      (request) => ({ ...fixture.label(String(body(request).name)), ...body(request) }),
    ),

    // branches.md, protected_branches.md
    ...collection(`${P}/repository/branches`, (name) => fixture.branch(name), {
      verbs: { list: { optional: ['search', 'regex'] }, get: NONE, delete: NONE },
      ids: ['main', 'feature/login', 'fix/typo'],
    }),
    post(`${P}/repository/branches`, { required: ['branch', 'ref'] }, (request) => fixture.branch(String(body(request).branch))),
    ...collection(`${P}/protected_branches`, (name) => fixture.protectedBranch(name), {
      verbs: { list: { optional: ['search'] }, delete: NONE },
      ids: ['main', 'release/*'],
    }),
    post(
      `${P}/protected_branches`,
      {
        required: ['name'],
        optional: [
          'allow_force_push',
          'allowed_to_merge',
          'allowed_to_push',
          'allowed_to_unprotect',
          'code_owner_approval_required',
          'merge_access_level',
          'push_access_level',
          'unprotect_access_level',
        ],
      },
      (request) => {
        const { name, push_access_level: push, merge_access_level: merge, allow_force_push: force } = body(request);
        return {
          ...fixture.protectedBranch(String(name)),
          push_access_levels: [{ id: 1, access_level: push ?? 40 }],
          merge_access_levels: [{ id: 2, access_level: merge ?? 40 }],
          allow_force_push: force === true,
        };
      },
    ),

    // tags.md, protected_tags.md, releases/index.md
    ...collection(`${P}/repository/tags`, (name) => fixture.tag(name), {
      verbs: { list: { optional: ['order_by', 'sort', 'search'] }, get: NONE, delete: NONE },
      ids: ['v1.1.0', 'v1.0.0'],
    }),
    post(`${P}/repository/tags`, { required: ['tag_name', 'ref'], optional: ['message'] }, (request) => ({
      ...fixture.tag(String(body(request).tag_name)),
      release: null,
    })),
    ...collection(`${P}/protected_tags`, (name) => fixture.protectedTag(name), {
      verbs: { list: NONE, delete: NONE },
      ids: ['v*'],
    }),
    post(`${P}/protected_tags`, { required: ['name'], optional: ['allowed_to_create', 'create_access_level'] }, (request) => ({
      ...fixture.protectedTag(String(body(request).name)),
      create_access_levels: [{ id: 1, access_level: body(request).create_access_level ?? 40 }],
    })),
    ...withCreate(
      collection(`${P}/releases`, (tagName) => fixture.release(tagName, `Notes for ${tagName}`), {
        verbs: {
          list: { optional: ['order_by', 'sort', 'include_html_description', 'updated_before', 'updated_after'] },
          get: { optional: ['include_html_description'] },
          create: {
            required: ['tag_name'],
            optional: ['tag_message', 'name', 'description', 'ref', 'milestones', 'assets', 'released_at'],
          },
          update: { optional: ['name', 'description', 'milestones', 'released_at'] },
          delete: NONE,
        },
        ids: ['v1.1.0', 'v1.0.0'],
        idParam: 'tag',
      }),
      (request) => ({ ...fixture.release(String(body(request).tag_name), String(body(request).description ?? '')), ...body(request) }),
    ),

    // repository_files.md, commits.md, repositories.md
    get(`${P}/repository/files/:path`, { required: ['ref'] }, (request) => fixture.repositoryFile(request.params.path as string)),
    post(`${P}/repository/files/:path`, { required: ['branch', 'commit_message', 'content'], optional: FILE_WRITE }, (request) => ({
      file_path: request.params.path,
      branch: body(request).branch,
    })),
    put(
      `${P}/repository/files/:path`,
      { required: ['branch', 'commit_message', 'content'], optional: [...FILE_WRITE, 'last_commit_id'] },
      (request) => ({ file_path: request.params.path, branch: body(request).branch }),
    ),
    del(
      `${P}/repository/files/:path`,
      { required: ['branch', 'commit_message'], optional: ['start_branch', 'author_email', 'author_name', 'last_commit_id'] },
      noContent,
    ),
    get(`${P}/repository/tree`, { optional: ['path', 'ref', 'recursive'] }, () => ({ paginated: fixture.tree() }), {
      keyset: { cursor: 'page_token' },
    }),
    get(
      `${P}/repository/commits`,
      { optional: ['ref_name', 'since', 'until', 'path', 'author', 'all', 'with_stats', 'first_parent', 'order', 'trailers'] },
      () => ({ paginated: [fixture.commit(1), fixture.commit(2), fixture.commit(3)] }),
    ),
    post(
      `${P}/repository/commits`,
      {
        required: ['branch', 'commit_message', 'actions'],
        optional: ['start_branch', 'start_sha', 'start_project', 'author_email', 'author_name', 'stats', 'force'],
      },
      (request) => ({ ...fixture.commit(9), title: String(body(request).commit_message).split('\n')[0] }),
    ),
    get(`${P}/repository/commits/:sha`, { optional: ['stats'] }, (request) => ({
      ...fixture.commit(1),
      id: request.params.sha,
      stats: { additions: 3, deletions: 1, total: 4 },
    })),
    get(`${P}/repository/commits/:sha/diff`, { optional: ['unidiff'] }, () => ({ paginated: fixture.mergeRequestDiffs() })),
    get(`${P}/repository/compare`, { required: ['from', 'to'], optional: ['from_project_id', 'straight', 'unidiff'] }, (request) =>
      fixture.compare(String(request.query.from), String(request.query.to)),
    ),

    // search.md
    get('/search', { required: ['scope', 'search'], optional: SEARCH }, (request) => ({
      paginated: fixture.searchResults(request.query.scope),
    })),
    get(`${G}/search`, { required: ['scope', 'search'], optional: SEARCH }, (request) => ({
      paginated: fixture.searchResults(request.query.scope),
    })),
    get(`${P}/search`, { required: ['scope', 'search'], optional: ['ref', ...SEARCH] }, (request) => ({
      paginated: fixture.searchResults(request.query.scope),
    })),

    // wikis.md
    ...withCreate(
      collection(
        `${P}/wikis`,
        (slug, request) => fixture.wikiPage(slug, Boolean(request.params.slug) || request.query.with_content === 'true'),
        {
          verbs: {
            list: { optional: ['with_content'] },
            get: { optional: ['render_html', 'version'] },
            create: { required: ['title', 'content'], optional: ['format'] },
            update: { optional: ['title', 'content', 'format'] },
            delete: NONE,
          },
          ids: ['home', 'guides/setup'],
          idParam: 'slug',
          // The list is not paged: GitLab answers every page and ignores page and per_page.
          listPaging: 'none',
        },
      ),
      (request) => ({ ...fixture.wikiPage(String(body(request).title).toLowerCase().replace(/\s+/g, '-'), true), ...body(request) }),
    ),

    // epics.md, epic_issues.md (deprecated REST epics; see the GraphQL work items for 17.7+)
    ...collection(`${G}/epics`, (id, request) => fixture.epic(groupOf(request), numberOf(id)), {
      verbs: {
        list: {
          optional: [
            'author_id',
            'author_username',
            'labels',
            'with_labels_details',
            'order_by',
            'sort',
            'search',
            'state',
            'created_after',
            'created_before',
            'updated_before',
            'updated_after',
            'include_ancestor_groups',
            'include_descendant_groups',
            'my_reaction_emoji',
            'not',
            'confidential',
          ],
        },
        get: NONE,
        create: {
          required: ['title'],
          optional: [
            'labels',
            'description',
            'color',
            'confidential',
            'created_at',
            'start_date_is_fixed',
            'start_date_fixed',
            'due_date_is_fixed',
            'due_date_fixed',
            'parent_id',
          ],
        },
        update: {
          optional: [
            'add_labels',
            'confidential',
            'description',
            'due_date_fixed',
            'due_date_is_fixed',
            'labels',
            'parent_id',
            'remove_labels',
            'start_date_fixed',
            'start_date_is_fixed',
            'state_event',
            'title',
            'updated_at',
            'color',
          ],
        },
      },
      createdId: '8',
      idParam: 'iid',
    }),
    get(`${G}/epics/:iid/issues`, NONE, () => ({ paginated: [fixture.epicIssue(1), fixture.epicIssue(2)] })),
    post(`${G}/epics/:iid/issues/:issue`, NONE, (request) => ({
      id: 71,
      epic: fixture.epic(groupOf(request), numberOf(request.params.iid)),
      issue: fixture.issue('group/project', 1),
    })),
    del(`${G}/epics/:iid/issues/:link`, NONE, (request) => ({
      id: numberOf(request.params.link),
      epic: fixture.epic(groupOf(request), numberOf(request.params.iid)),
      issue: fixture.issue('group/project', 1),
    })),

    // group_iterations.md: REST has only the list; everything else is GraphQL.
    get(
      `${G}/iterations`,
      { optional: ['state', 'search', 'in', 'include_ancestors', 'include_descendants', 'updated_before', 'updated_after'] },
      () => ({ paginated: ['51', '52', '53'].map((id) => fixture.iteration(numberOf(id))) }),
    ),

    // milestones.md, group_milestones.md
    ...[P, G].flatMap((base) => [
      ...collection(`${base}/milestones`, (id) => fixture.milestone(numberOf(id)), {
        verbs: {
          list: { optional: ['iids[]', 'state', 'title', 'search', 'include_ancestors', 'updated_before', 'updated_after'] },
          get: NONE,
          create: { required: ['title'], optional: ['description', 'due_date', 'start_date'] },
          update: { optional: ['title', 'description', 'due_date', 'start_date', 'state_event'] },
          delete: NONE,
        },
        ids: ['11', '12'],
        createdId: '13',
      }),
      get(`${base}/milestones/:id/issues`, NONE, () => ({
        paginated: [fixture.issue('group/project', 1), fixture.issue('group/project', 2)],
      })),
      get(`${base}/milestones/:id/merge_requests`, NONE, () => ({ paginated: [fixture.mergeRequest('group/project', 1)] })),
    ]),

    // boards.md, group_boards.md
    ...[P, G].flatMap((base) => [
      ...collection(`${base}/boards`, (id) => fixture.board(numberOf(id)), {
        verbs: {
          list: NONE,
          get: NONE,
          create: { required: ['name'] },
          update: {
            optional: ['name', 'hide_backlog_list', 'hide_closed_list', 'assignee_id', 'milestone_id', 'labels', 'weight'],
          },
          delete: NONE,
        },
        ids: ['1', '2'],
        createdId: '3',
      }),
      ...collection(`${base}/boards/:board/lists`, (id) => fixture.boardList(numberOf(id)), {
        verbs: {
          list: NONE,
          get: NONE,
          create: { optional: ['label_id', 'assignee_id', 'milestone_id', 'iteration_id'] },
          update: { required: ['position'] },
          delete: NONE,
        },
        createdId: '4',
      }),
    ]),

    // Time tracking, merge_request_approvals.md, draft_notes.md, discussions.md
    ...timeTracking(ISSUE),
    ...timeTracking(MR),
    get(`${MR}/approvals`, NONE, (request) => fixture.approvals(numberOf(request.params.iid))),
    get(`${MR}/approval_state`, NONE, () => fixture.approvalState()),
    post(`${MR}/approve`, { optional: ['sha', 'approval_password'] }, (request) => ({
      ...fixture.approvals(numberOf(request.params.iid)),
      approvals_left: 0,
      approved: true,
    })),
    post(`${MR}/unapprove`, NONE, noContent),
    get(`${MR}/approval_rules`, NONE, () => ({ paginated: [fixture.approvalRule(1), fixture.approvalRule(2)] })),
    ...collection(`${P}/approval_rules`, (id) => fixture.approvalRule(numberOf(id)), {
      verbs: {
        list: NONE,
        create: {
          required: ['name', 'approvals_required'],
          optional: [
            'applies_to_all_protected_branches',
            'group_ids',
            'protected_branch_ids',
            'report_type',
            'rule_type',
            'user_ids',
            'usernames',
          ],
        },
        delete: NONE,
      },
      ids: ['1', '2'],
    }),
    post(`${MR}/draft_notes/bulk_publish`, NONE, noContent),
    ...collection(`${MR}/draft_notes`, (id) => fixture.draftNote(numberOf(id)), {
      verbs: {
        list: NONE,
        get: NONE,
        create: {
          required: ['note'],
          optional: ['commit_id', 'in_reply_to_discussion_id', 'internal', 'position', 'resolve_discussion'],
        },
        update: { optional: ['note', 'position'] },
        delete: NONE,
      },
      ids: ['1', '2'],
      // Not paged (lib/api/draft_notes.rb presents every draft; the documentation lists no paging).
      listPaging: 'none',
    }),
    ...discussions(MR, 'MergeRequest'),
    ...discussions(ISSUE, 'Issue'),

    // pipelines.md, jobs.md, job_artifacts.md
    ...collection(`${P}/pipelines`, (id) => fixture.pipeline(numberOf(id)), {
      verbs: {
        list: {
          optional: [
            'scope',
            'status',
            'source',
            'ref',
            'sha',
            'yaml_errors',
            'username',
            'updated_after',
            'updated_before',
            'created_after',
            'created_before',
            'name',
            'order_by',
            'sort',
          ],
        },
        get: NONE,
        delete: NONE,
      },
      ids: ['502', '501', '500'],
    }),
    post(`${P}/pipeline`, { required: ['ref'], optional: ['variables', 'inputs'] }, (request) => ({
      ...fixture.pipeline(503),
      status: 'created',
      ref: String(body(request).ref),
    })),
    post(`${P}/pipelines/:id/retry`, NONE, (request) => ({ ...fixture.pipeline(numberOf(request.params.id)), status: 'running' })),
    post(`${P}/pipelines/:id/cancel`, NONE, (request) => ({ ...fixture.pipeline(numberOf(request.params.id)), status: 'canceled' })),
    get(`${P}/pipelines/:id/jobs`, { optional: ['scope', 'include_retried'] }, () => ({
      paginated: [
        fixture.job(601, 'build'),
        { ...fixture.job(602, 'unit'), stage: 'test', status: 'failed' },
        { ...fixture.job(603, 'lint'), stage: 'test' },
      ],
    })),
    get(`${P}/pipelines/:id/variables`, NONE, () => ({ paginated: fixture.pipelineVariables() })),
    ...collection(`${P}/jobs`, (id) => fixture.job(numberOf(id)), {
      verbs: { list: { optional: ['scope'] }, get: NONE },
      ids: ['603', '602', '601'],
      listPaging: { keyset: { orderBy: ['id'], sort: ['desc'] } },
    }),
    get(`${P}/jobs/:id/trace`, NONE, () => ({ status: 200, body: fixture.jobLog() })),
    post(`${P}/jobs/:id/retry`, NONE, (request) => ({ ...fixture.job(numberOf(request.params.id) + 100), status: 'pending' })),
    post(`${P}/jobs/:id/cancel`, NONE, (request) => ({ ...fixture.job(numberOf(request.params.id)), status: 'canceled' })),
    post(`${P}/jobs/:id/play`, { optional: ['job_variables_attributes'] }, (request) => ({
      ...fixture.job(numberOf(request.params.id)),
      status: 'pending',
    })),
    post(`${P}/jobs/:id/erase`, NONE, (request) => ({ ...fixture.job(numberOf(request.params.id)), artifacts: [], artifacts_file: null })),
    get(`${P}/jobs/artifacts/:ref/download`, { required: ['job'], optional: ['job_token', 'search_recent_successful_pipelines'] }, () => ({
      status: 200,
      body: standInArtifactsZip(),
    })),
    get(`${P}/jobs/:id/artifacts`, { optional: ['job_token'] }, () => ({ status: 200, body: standInArtifactsZip() })),
    del(`${P}/jobs/:id/artifacts`, NONE, noContent),
    post(`${P}/jobs/:id/artifacts/keep`, NONE, (request) => fixture.job(numberOf(request.params.id))),
    get(`${P}/jobs/:id/artifacts/*path`, { optional: ['job_token'] }, (request) =>
      request.params.path === 'report.txt'
        ? { status: 200, body: new TextEncoder().encode('all tests passed\n') }
        : { status: 404, body: { message: '404 File Not Found' } },
    ),

    // project_level_variables.md, group_level_variables.md
    ...[P, G].flatMap((base) =>
      withCreate(
        collection(`${base}/variables`, (key) => fixture.variable(key), {
          verbs: {
            list: NONE,
            get: { optional: ['filter[environment_scope]'] },
            create: {
              required: ['key', 'value'],
              optional: ['variable_type', 'protected', 'masked', 'masked_and_hidden', 'raw', 'environment_scope', 'description'],
            },
            update: {
              optional: [
                'value',
                'variable_type',
                'protected',
                'masked',
                'raw',
                'environment_scope',
                'description',
                'filter[environment_scope]',
              ],
            },
            delete: { optional: ['filter[environment_scope]'] },
          },
          ids: ['DATABASE_URL', 'API_SECRET'],
          idParam: 'key',
        }),
        (request) => ({ ...fixture.variable(String(body(request).key)), ...body(request) }),
      ),
    ),

    // deploy_keys.md, deploy_tokens.md
    ...collection(`${P}/deploy_keys`, (id) => fixture.deployKey(numberOf(id)), {
      verbs: {
        list: NONE,
        get: NONE,
        create: { required: ['title', 'key'], optional: ['can_push', 'expires_at'] },
        update: { optional: ['title', 'can_push'] },
        delete: NONE,
      },
      ids: ['1', '2'],
      createdId: '3',
    }),
    post(`${P}/deploy_keys/:id/enable`, NONE, (request) => fixture.deployKey(numberOf(request.params.id))),
    ...[P, G].flatMap((base) => [
      ...collection(`${base}/deploy_tokens`, (id) => fixture.deployToken(numberOf(id)), {
        verbs: { list: { optional: ['active'] }, get: NONE, delete: NONE },
        ids: ['1', '2'],
      }),
      post(`${base}/deploy_tokens`, { required: ['name', 'scopes'], optional: ['expires_at', 'username'] }, (request) => ({
        ...fixture.deployToken(3),
        ...body(request),
        token: 'gldt-deploy-token-secret',
      })),
    ]),

    // feature_flags.md, feature_flag_user_lists.md (user lists are addressed by iid)
    ...withCreate(
      collection(`${P}/feature_flags`, (name) => fixture.featureFlag(name), {
        verbs: {
          list: { optional: ['scope'] },
          get: NONE,
          create: { required: ['name'], optional: ['version', 'description', 'active', 'strategies'] },
          update: { optional: ['name', 'description', 'active', 'strategies'] },
          delete: NONE,
        },
        ids: ['new_checkout', 'dark_mode'],
        idParam: 'name',
      }),
      (request) => ({ ...fixture.featureFlag(String(body(request).name)), ...body(request) }),
    ),
    ...collection(`${P}/feature_flags_user_lists`, (iid) => fixture.featureFlagUserList(numberOf(iid)), {
      verbs: {
        list: { optional: ['search'] },
        get: NONE,
        create: { required: ['name', 'user_xids'] },
        update: { optional: ['name', 'user_xids'] },
        delete: NONE,
      },
      ids: ['1', '2'],
      createdId: '3',
      idParam: 'iid',
    }),
  ];
}
