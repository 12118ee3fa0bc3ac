import { zipSync } from 'fflate';
import * as fixture from './gitlab-fixtures.js';
import type { RouteRequest, StandInRoute } from './gitlab-server.js';

type Factory = (id: string, request: RouteRequest) => object;

interface CollectionOptions {
  /** Ids listed by GET on the collection (default 1, 2, 3). */
  ids?: readonly string[];
  /** Id of a created item (default 4). */
  createdId?: string;
  /** Which verbs exist (default all). */
  verbs?: ReadonlyArray<'list' | 'get' | 'create' | 'update' | 'delete'>;
  /** Name of the item's path parameter (default `id`). */
  idParam?: string;
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
function collection(path: string, make: Factory, options: CollectionOptions = {}): StandInRoute[] {
  const { ids = ['1', '2', '3'], createdId = '4', verbs = ['list', 'get', 'create', 'update', 'delete'], idParam = 'id' } = options;
  const item = `${path}/:${idParam}`;
  const routes: StandInRoute[] = [];
  if (verbs.includes('list'))
    routes.push({ method: 'GET', pattern: path, handler: (request) => ({ paginated: ids.map((id) => make(id, request)) }) });
  if (verbs.includes('get'))
    routes.push({ method: 'GET', pattern: item, handler: (request) => make(request.params[idParam] as string, request) });
  if (verbs.includes('create'))
    routes.push({ method: 'POST', pattern: path, handler: (request) => ({ ...make(createdId, request), ...body(request) }) });
  if (verbs.includes('update'))
    routes.push({
      method: 'PUT',
      pattern: item,
      handler: (request) => applyUpdate(make(request.params[idParam] as string, request), request),
    });
  if (verbs.includes('delete')) routes.push({ method: 'DELETE', pattern: item, handler: () => undefined });
  return routes;
}

function post(pattern: string, handler: (request: RouteRequest) => unknown): StandInRoute {
  return { method: 'POST', pattern, handler };
}

function get(pattern: string, handler: (request: RouteRequest) => unknown): StandInRoute {
  return { method: 'GET', pattern, handler };
}

function put(pattern: string, handler: (request: RouteRequest) => unknown): StandInRoute {
  return { method: 'PUT', pattern, handler };
}

const noContent = (): undefined => undefined;
const projectOf = (request: RouteRequest): string => request.params.project ?? 'group/project';
const groupOf = (request: RouteRequest): string => request.params.group ?? 'group';
const numberOf = (value: string | undefined): number => Number(value ?? 1);

/** The zip archive every job's artifacts download returns. */
export function standInArtifactsZip(): Uint8Array {
  return zipSync({
    'report.txt': new TextEncoder().encode('all tests passed\n'),
    'coverage/index.html': new TextEncoder().encode('<html>87.5%</html>\n'),
    'coverage/lcov.info': new TextEncoder().encode('TN:\nSF:src/app.ts\nend_of_record\n'),
  });
}

const P = '/projects/:project';
const MR = `${P}/merge_requests/:iid`;
const ISSUE = `${P}/issues/:iid`;

function namespaced(suffix: string, make: Factory, options?: CollectionOptions): StandInRoute[] {
  return [...collection(`${P}${suffix}`, make, options), ...collection(`/groups/:group${suffix}`, make, options)];
}

function timeTracking(base: string): StandInRoute[] {
  return [
    post(`${base}/time_estimate`, (request) => ({ ...fixture.timeStats(), human_time_estimate: String(body(request).duration) })),
    post(`${base}/reset_time_estimate`, () => ({ ...fixture.timeStats(), time_estimate: 0, human_time_estimate: null })),
    post(`${base}/add_spent_time`, () => ({ ...fixture.timeStats(), total_time_spent: 5400, human_total_time_spent: '1h 30m' })),
    post(`${base}/reset_spent_time`, () => ({ ...fixture.timeStats(), total_time_spent: 0, human_total_time_spent: null })),
    get(`${base}/time_stats`, () => fixture.timeStats()),
  ];
}

function discussions(base: string, noteableType: string): StandInRoute[] {
  const ids = ['6a9c1750b37d513a43987b574953fceb50b03ce7', '87805b7c09016a7058e91bdbe7b29d1f284a39e6'];
  return [
    get(`${base}/discussions`, () => ({ paginated: ids.map((id, index) => fixture.discussion(id, index === 1)) })),
    get(`${base}/discussions/:id`, (request) => fixture.discussion(request.params.id as string)),
    post(`${base}/discussions`, (request) => ({
      ...fixture.discussion('f00dfacef00dfacef00dfacef00dfacef00dface'),
      notes: [fixture.note(950, String(body(request).body), noteableType)],
    })),
    post(`${base}/discussions/:id/notes`, (request) => fixture.note(951, String(body(request).body), noteableType)),
    put(`${base}/discussions/:id`, (request) => fixture.discussion(request.params.id as string, body(request).resolved === true)),
  ];
}

/** Every route the stand-in answers, below the API root. */
export function defaultGitLabRoutes(): StandInRoute[] {
  return [
    // Users and projects.
    get('/user', () => fixture.currentUser()),
    get('/users', (request) => ({
      paginated: Object.values(fixture.STAND_IN_USERS).filter((user) =>
        user.username.includes((request.query.username ?? '').toLowerCase()),
      ),
    })),
    get('/projects', (request) => ({
      paginated: ['group/project', 'group/sub/tool', 'other/library']
        .filter((path) => path.includes(request.query.search ?? ''))
        .map((path, index) => fixture.project(path, 42 + index)),
    })),
    get(P, (request) => fixture.project(projectOf(request))),
    post(`${P}/fork`, (request) =>
      fixture.project(`${String(body(request).namespace_path ?? 'alice')}/${projectOf(request).split('/').pop()}`, 77),
    ),

    // Issues.
    get('/issues', () => ({ paginated: [fixture.issue('group/project', 1), fixture.issue('other/library', 2)] })),
    ...collection(`${P}/issues`, (id, request) => fixture.issue(projectOf(request), numberOf(id)), {
      verbs: ['list', 'get', 'create', 'update'],
      createdId: '12',
      idParam: 'iid',
    }),
    post(`${ISSUE}/notes`, (request) => fixture.note(800, String(body(request).body))),

    // Merge requests.
    get('/merge_requests', () => ({ paginated: [fixture.mergeRequest('group/project', 1), fixture.mergeRequest('other/library', 2)] })),
    ...collection(`${P}/merge_requests`, (id, request) => fixture.mergeRequest(projectOf(request), numberOf(id)), {
      verbs: ['list', 'get', 'create', 'update'],
      createdId: '15',
      idParam: 'iid',
    }),
    put(`${MR}/merge`, (request) => ({ ...fixture.mergeRequest(projectOf(request), numberOf(request.params.iid)), state: 'merged' })),
    post(`${MR}/notes`, (request) => fixture.note(801, String(body(request).body), 'MergeRequest')),
    get(`${MR}/diffs`, () => ({ paginated: fixture.mergeRequestDiffs() })),
    get(`${MR}/commits`, () => ({ paginated: [fixture.commit(1), fixture.commit(2)] })),
    get(`${MR}/pipelines`, () => ({ paginated: [fixture.pipeline(501), fixture.pipeline(500)] })),

    // Labels, branches, tags.
    ...collection(`${P}/labels`, (name) => fixture.label(name), { ids: ['bug', 'feature', 'needs review'], createdId: 'new' }).map(
      (route) =>
        route.method === 'POST'
          ? { ...route, handler: (request: RouteRequest) => ({ ...fixture.label(String(body(request).name)), ...body(request) }) }
          : route,
    ),
    ...collection(`${P}/repository/branches`, (name) => fixture.branch(name), {
      ids: ['main', 'feature/login', 'fix/typo'],
      verbs: ['list', 'get', 'delete'],
    }),
    post(`${P}/repository/branches`, (request) => fixture.branch(String(body(request).branch))),
    ...collection(`${P}/protected_branches`, (name) => fixture.protectedBranch(name), {
      ids: ['main', 'release/*'],
      verbs: ['list', 'delete'],
    }),
    post(`${P}/protected_branches`, (request) => {
      const { name, push_access_level: push, merge_access_level: merge, allow_force_push: force } = body(request);
      return {
        ...fixture.protectedBranch(String(name)),
        push_access_levels: [{ id: 1, access_level: push ?? 40 }],
        merge_access_levels: [{ id: 2, access_level: merge ?? 40 }],
        allow_force_push: force === true,
      };
    }),
    ...collection(`${P}/repository/tags`, (name) => fixture.tag(name), { ids: ['v1.1.0', 'v1.0.0'], verbs: ['list', 'get', 'delete'] }),
    post(`${P}/repository/tags`, (request) => ({ ...fixture.tag(String(body(request).tag_name)), release: null })),
    ...collection(`${P}/protected_tags`, (name) => fixture.protectedTag(name), { ids: ['v*'], verbs: ['list', 'delete'] }),
    post(`${P}/protected_tags`, (request) => ({
      ...fixture.protectedTag(String(body(request).name)),
      create_access_levels: [{ id: 1, access_level: body(request).create_access_level ?? 40 }],
    })),
    post(`${P}/releases`, (request) => fixture.release(String(body(request).tag_name), String(body(request).description))),

    // Epics and iterations (group level).
    ...collection('/groups/:group/epics', (id, request) => fixture.epic(groupOf(request), numberOf(id)), {
      verbs: ['list', 'get', 'create', 'update'],
      createdId: '8',
      idParam: 'iid',
    }),
    get('/groups/:group/epics/:iid/issues', () => ({ paginated: [fixture.epicIssue(1), fixture.epicIssue(2)] })),
    post('/groups/:group/epics/:iid/issues/:issue', (request) => ({
      id: 71,
      epic: fixture.epic(groupOf(request), numberOf(request.params.iid)),
      issue: fixture.issue('group/project', 1),
    })),
    {
      method: 'DELETE',
      pattern: '/groups/:group/epics/:iid/issues/:link',
      handler: (request) => ({
        id: numberOf(request.params.link),
        epic: fixture.epic(groupOf(request), numberOf(request.params.iid)),
        issue: fixture.issue('group/project', 1),
      }),
    },
    get('/groups/:group/iterations/cadences', () => ({ paginated: [fixture.cadence(1), fixture.cadence(2)] })),
    post('/groups/:group/iterations/cadences', (request) => ({ ...fixture.cadence(3), ...body(request) })),
    ...collection('/groups/:group/iterations', (id) => fixture.iteration(numberOf(id)), { ids: ['51', '52', '53'], createdId: '54' }),

    // Milestones and boards (project or group).
    ...namespaced('/milestones', (id) => fixture.milestone(numberOf(id)), {
      ids: ['11', '12'],
      createdId: '13',
      verbs: ['list', 'get', 'create', 'update'],
    }),
    ...['/projects/:project', '/groups/:group'].flatMap((base) => [
      get(`${base}/milestones/:id/issues`, () => ({ paginated: [fixture.issue('group/project', 1), fixture.issue('group/project', 2)] })),
      get(`${base}/milestones/:id/merge_requests`, () => ({ paginated: [fixture.mergeRequest('group/project', 1)] })),
      ...collection(`${base}/boards/:board/lists`, (id) => fixture.boardList(numberOf(id)), { createdId: '4' }),
    ]),
    ...namespaced('/boards', (id) => fixture.board(numberOf(id)), { ids: ['1', '2'], createdId: '3' }),

    // Time tracking, approvals, drafts, discussions.
    ...timeTracking(ISSUE),
    ...timeTracking(MR),
    get(`${MR}/approvals`, (request) => fixture.approvals(numberOf(request.params.iid))),
    post(`${MR}/approve`, (request) => ({ ...fixture.approvals(numberOf(request.params.iid)), approvals_left: 0, approved: true })),
    post(`${MR}/unapprove`, noContent),
    get(`${MR}/approval_rules`, () => ({ paginated: [fixture.approvalRule(1), fixture.approvalRule(2)] })),
    ...collection(`${P}/approval_rules`, (id) => fixture.approvalRule(numberOf(id)), {
      ids: ['1', '2'],
      verbs: ['list', 'create', 'delete'],
    }),
    post(`${MR}/draft_notes/bulk_publish`, noContent),
    ...collection(`${MR}/draft_notes`, (id) => fixture.draftNote(numberOf(id)), { ids: ['1', '2'] }),
    ...discussions(MR, 'MergeRequest'),
    ...discussions(ISSUE, 'Issue'),

    // CI: pipelines, jobs, artifacts, variables.
    ...collection(`${P}/pipelines`, (id) => fixture.pipeline(numberOf(id)), {
      ids: ['502', '501', '500'],
      verbs: ['list', 'get', 'delete'],
    }),
    post(`${P}/pipeline`, (request) => ({ ...fixture.pipeline(503), status: 'created', ref: String(body(request).ref) })),
    post(`${P}/pipelines/:id/retry`, (request) => ({ ...fixture.pipeline(numberOf(request.params.id)), status: 'running' })),
    post(`${P}/pipelines/:id/cancel`, (request) => ({ ...fixture.pipeline(numberOf(request.params.id)), status: 'canceled' })),
    get(`${P}/pipelines/:id/jobs`, () => ({
      paginated: [
        fixture.job(601, 'build'),
        { ...fixture.job(602, 'unit'), stage: 'test', status: 'failed' },
        { ...fixture.job(603, 'lint'), stage: 'test' },
      ],
    })),
    get(`${P}/pipelines/:id/variables`, () => ({ paginated: fixture.pipelineVariables() })),
    ...collection(`${P}/jobs`, (id) => fixture.job(numberOf(id)), { ids: ['603', '602', '601'], verbs: ['list', 'get'] }),
    get(`${P}/jobs/:id/trace`, () => ({ status: 200, body: fixture.jobLog() })),
    post(`${P}/jobs/:id/retry`, (request) => ({ ...fixture.job(numberOf(request.params.id) + 100), status: 'pending' })),
    post(`${P}/jobs/:id/cancel`, (request) => ({ ...fixture.job(numberOf(request.params.id)), status: 'canceled' })),
    post(`${P}/jobs/:id/play`, (request) => ({ ...fixture.job(numberOf(request.params.id)), status: 'pending' })),
    post(`${P}/jobs/:id/erase`, (request) => ({ ...fixture.job(numberOf(request.params.id)), artifacts: [], artifacts_file: null })),
    get(`${P}/jobs/artifacts/:ref/download`, () => ({ status: 200, body: standInArtifactsZip() })),
    get(`${P}/jobs/:id/artifacts`, () => ({ status: 200, body: standInArtifactsZip() })),
    { method: 'DELETE', pattern: `${P}/jobs/:id/artifacts`, handler: noContent },
    post(`${P}/jobs/:id/artifacts/keep`, (request) => fixture.job(numberOf(request.params.id))),
    get(`${P}/jobs/:id/artifacts/*path`, (request) =>
      request.params.path === 'report.txt'
        ? { status: 200, body: new TextEncoder().encode('all tests passed\n') }
        : { status: 404, body: { message: '404 File Not Found' } },
    ),
    ...namespaced('/variables', (key) => fixture.variable(key), { ids: ['DATABASE_URL', 'API_SECRET'], createdId: 'NEW_VARIABLE' }).map(
      (route) =>
        route.method === 'POST'
          ? { ...route, handler: (request: RouteRequest) => ({ ...fixture.variable(String(body(request).key)), ...body(request) }) }
          : route,
    ),

    // Deploy keys and tokens, feature flags.
    ...collection(`${P}/deploy_keys`, (id) => fixture.deployKey(numberOf(id)), { ids: ['1', '2'], createdId: '3' }),
    post(`${P}/deploy_keys/:id/enable`, (request) => fixture.deployKey(numberOf(request.params.id))),
    ...namespaced('/deploy_tokens', (id) => fixture.deployToken(numberOf(id)), { ids: ['1', '2'], verbs: ['list', 'get', 'delete'] }),
    ...['/projects/:project', '/groups/:group'].map((base) =>
      post(`${base}/deploy_tokens`, (request) => ({ ...fixture.deployToken(3), ...body(request), token: 'gldt-deploy-token-secret' })),
    ),
    ...collection(`${P}/feature_flags`, (name) => fixture.featureFlag(name), { ids: ['new_checkout', 'dark_mode'] }).map((route) =>
      route.method === 'POST'
        ? { ...route, handler: (request: RouteRequest) => ({ ...fixture.featureFlag(String(body(request).name)), ...body(request) }) }
        : route,
    ),
    ...collection(`${P}/feature_flags_user_lists`, (id) => fixture.featureFlagUserList(numberOf(id)), { ids: ['1', '2'], createdId: '3' }),
  ];
}
