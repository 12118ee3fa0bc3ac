// Response bodies in the shapes GitLab's REST API v4 documents, trimmed to the fields a client
// reads. Values are fixed so tests can assert on them.

const CREATED = '2024-05-01T09:30:00.000Z';
const UPDATED = '2024-05-02T10:45:00.000Z';
const SHA = '8f2c1e4d9b7a6c5e3f1d2b4a6c8e0f1a2b3c4d5e';
const BASE_SHA = '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d';
const START_SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const WEB = 'https://gitlab.example.com';

/** Users the stand-in knows, by username. */
export const STAND_IN_USERS = {
  alice: { id: 1, username: 'alice', name: 'Alice Example', state: 'active', avatar_url: null, web_url: `${WEB}/alice` },
  bob: { id: 2, username: 'bob', name: 'Bob Builder', state: 'active', avatar_url: null, web_url: `${WEB}/bob` },
  bobby: { id: 7, username: 'bobby', name: 'Bobby Tables', state: 'active', avatar_url: null, web_url: `${WEB}/bobby` },
  carol: { id: 3, username: 'carol', name: 'Carol Reviewer', state: 'active', avatar_url: null, web_url: `${WEB}/carol` },
};

const { alice, bob, carol } = STAND_IN_USERS;

export function currentUser(): object {
  return { ...alice, email: 'alice@example.com', public_email: 'alice@example.com', bot: false, is_admin: false };
}

export function project(path: string, id = 42): object {
  const name = path.split('/').pop() ?? path;
  return {
    id: /^\d+$/.test(path) ? Number(path) : id,
    name,
    path: name,
    path_with_namespace: /^\d+$/.test(path) ? 'group/project' : path,
    description: 'A project used by the stand-in GitLab for tests of the skills.',
    visibility: 'private',
    default_branch: 'main',
    topics: ['testing', 'nexus'],
    star_count: 5,
    forks_count: 2,
    open_issues_count: 3,
    http_url_to_repo: `${WEB}/${path}.git`,
    ssh_url_to_repo: `git@gitlab.example.com:${path}.git`,
    web_url: `${WEB}/${path}`,
    namespace: { id: 9, name: 'group', path: 'group', kind: 'group', full_path: 'group' },
    created_at: CREATED,
    last_activity_at: UPDATED,
    runners_token: 'GR1348941runners-secret-value',
  };
}

export function issue(project: string, iid: number): object {
  return {
    id: 1000 + iid,
    iid,
    project_id: 42,
    title: `Issue number ${iid}`,
    description: `Steps to reproduce issue ${iid}.`,
    state: 'opened',
    created_at: CREATED,
    updated_at: UPDATED,
    closed_at: null,
    labels: ['bug', 'backend'],
    milestone: { id: 11, iid: 1, title: 'v1.0' },
    assignees: [bob],
    assignee: bob,
    author: alice,
    due_date: '2024-06-01',
    user_notes_count: 2,
    web_url: `${WEB}/${project}/-/issues/${iid}`,
    references: { short: `#${iid}`, relative: `#${iid}`, full: `${project}#${iid}` },
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
  };
}

export function mergeRequest(project: string, iid: number): object {
  return {
    id: 2000 + iid,
    iid,
    project_id: 42,
    title: `Merge request ${iid}`,
    description: 'Adds the feature.',
    state: 'opened',
    draft: false,
    source_branch: 'feature/login',
    target_branch: 'main',
    author: alice,
    assignees: [alice],
    reviewers: [carol],
    labels: ['feature'],
    milestone: { id: 11, iid: 1, title: 'v1.0' },
    merge_status: 'can_be_merged',
    detailed_merge_status: 'mergeable',
    has_conflicts: false,
    sha: SHA,
    diff_refs: { base_sha: BASE_SHA, head_sha: SHA, start_sha: START_SHA },
    created_at: CREATED,
    updated_at: UPDATED,
    web_url: `${WEB}/${project}/-/merge_requests/${iid}`,
    references: { short: `!${iid}`, relative: `!${iid}`, full: `${project}!${iid}` },
  };
}

export function mergeRequestDiffs(): object[] {
  return [
    {
      old_path: 'src/app.ts',
      new_path: 'src/app.ts',
      new_file: false,
      renamed_file: false,
      deleted_file: false,
      diff: '@@ -1,3 +1,4 @@\n-const a = 1;\n+const a = 2;\n+const b = 3;\n context\n',
    },
    { old_path: 'docs/new.md', new_path: 'docs/new.md', new_file: true, renamed_file: false, deleted_file: false, diff: '+# New\n+text\n' },
    { old_path: 'old/name.ts', new_path: 'new/name.ts', new_file: false, renamed_file: true, deleted_file: false, diff: '' },
    { old_path: 'gone.txt', new_path: 'gone.txt', new_file: false, renamed_file: false, deleted_file: true, diff: '@@ -1 +0,0 @@\n-bye\n' },
  ];
}

export function commit(index: number): object {
  const id = `${index}`.padStart(2, '0').repeat(20);
  return {
    id,
    short_id: id.slice(0, 8),
    title: `Commit ${index}`,
    message: `Commit ${index}\n\nBody.`,
    author_name: 'Alice Example',
    author_email: 'alice@example.com',
    authored_date: CREATED,
    committed_date: CREATED,
    created_at: CREATED,
    web_url: `${WEB}/group/project/-/commit/${id}`,
  };
}

export function pipeline(id: number): object {
  return {
    id,
    iid: id - 100,
    project_id: 42,
    status: 'success',
    source: 'push',
    ref: 'main',
    sha: SHA,
    before_sha: BASE_SHA,
    tag: false,
    web_url: `${WEB}/group/project/-/pipelines/${id}`,
    created_at: CREATED,
    updated_at: UPDATED,
    started_at: CREATED,
    finished_at: UPDATED,
    duration: 125,
    queued_duration: 3.2,
    coverage: '87.5',
    user: alice,
  };
}

export function pipelineVariables(): object[] {
  return [
    { key: 'DEPLOY_TOKEN', value: 'pipeline-secret-value', variable_type: 'env_var' },
    { key: 'ENVIRONMENT', value: 'staging', variable_type: 'env_var' },
  ];
}

export function job(id: number, name = 'test'): object {
  return {
    id,
    name,
    stage: 'test',
    status: 'success',
    ref: 'main',
    tag: false,
    coverage: 87.5,
    allow_failure: false,
    created_at: CREATED,
    started_at: CREATED,
    finished_at: UPDATED,
    duration: 61.23,
    queued_duration: 1.5,
    user: alice,
    commit: { id: SHA, short_id: SHA.slice(0, 8), title: 'Fix the build' },
    pipeline: { id: 501, project_id: 42, ref: 'main', sha: SHA, status: 'success' },
    web_url: `${WEB}/group/project/-/jobs/${id}`,
    artifacts_file: { filename: 'artifacts.zip', size: 1024 },
    artifacts: [
      { file_type: 'archive', size: 1024, filename: 'artifacts.zip', file_format: 'zip' },
      { file_type: 'trace', size: 300, filename: 'job.log', file_format: null },
    ],
    artifacts_expire_at: '2024-06-01T00:00:00.000Z',
    runner: { id: 8, description: 'shared-runner-1', active: true, is_shared: true, name: 'gitlab-runner' },
    failure_reason: null,
  };
}

export function jobLog(lines = 30): string {
  return `${Array.from({ length: lines }, (_, index) => `log line ${index + 1}`).join('\n')}\n`;
}

export function label(name: string, id = 5): object {
  return {
    id,
    name,
    color: '#d9534f',
    text_color: '#FFFFFF',
    description: `Label ${name}`,
    open_issues_count: 4,
    closed_issues_count: 7,
    open_merge_requests_count: 1,
    subscribed: false,
    priority: 1,
    is_project_label: true,
  };
}

export function branch(name: string): object {
  return {
    name,
    merged: false,
    protected: name === 'main',
    default: name === 'main',
    developers_can_push: false,
    developers_can_merge: false,
    can_push: true,
    web_url: `${WEB}/group/project/-/tree/${name}`,
    commit: {
      id: SHA,
      short_id: SHA.slice(0, 8),
      title: 'Fix the build',
      message: 'Fix the build',
      author_name: 'Alice Example',
      author_email: 'alice@example.com',
      authored_date: CREATED,
      committed_date: CREATED,
    },
  };
}

export function protectedBranch(name: string): object {
  return {
    id: 3,
    name,
    push_access_levels: [{ id: 1, access_level: 40, access_level_description: 'Maintainers' }],
    merge_access_levels: [{ id: 2, access_level: 30, access_level_description: 'Developers + Maintainers' }],
    allow_force_push: false,
    code_owner_approval_required: false,
  };
}

export function tag(name: string): object {
  return {
    name,
    message: `Release ${name}`,
    target: SHA,
    commit: {
      id: SHA,
      short_id: SHA.slice(0, 8),
      title: 'Fix the build',
      author_name: 'Alice Example',
      authored_date: CREATED,
      created_at: CREATED,
    },
    release: { tag_name: name, description: `Notes for ${name}` },
    protected: false,
    created_at: CREATED,
  };
}

export function protectedTag(name: string): object {
  return { name, create_access_levels: [{ id: 1, access_level: 40, access_level_description: 'Maintainers' }] };
}

export function release(tagName: string, description: string): object {
  return { tag_name: tagName, name: tagName, description, created_at: CREATED, released_at: CREATED, author: alice };
}

export function epic(group: string, iid: number): object {
  return {
    id: 300 + iid,
    iid,
    group_id: 9,
    title: `Epic ${iid}`,
    description: 'A large piece of work.',
    state: 'opened',
    author: alice,
    labels: ['roadmap'],
    start_date: '2024-05-01',
    due_date: '2024-07-01',
    parent_id: null,
    created_at: CREATED,
    updated_at: UPDATED,
    web_url: `${WEB}/groups/${group}/-/epics/${iid}`,
    references: { short: `&${iid}`, full: `${group}&${iid}` },
  };
}

export function epicIssue(iid: number): object {
  return { ...issue('group/project', iid), epic_issue_id: 70 + iid };
}

const ITERATION_STATES = [1, 2, 3];

export function iteration(id: number): object {
  return {
    id,
    iid: id - 50,
    sequence: id - 50,
    group_id: 9,
    title: `Sprint ${id - 50}`,
    description: 'Two weeks of work.',
    state: ITERATION_STATES[(id - 51) % 3] ?? 1,
    start_date: '2024-05-01',
    due_date: '2024-05-14',
    created_at: CREATED,
    updated_at: UPDATED,
    web_url: `${WEB}/groups/group/-/iterations/${id}`,
  };
}

export function milestone(id: number): object {
  return {
    id,
    iid: id - 10,
    project_id: 42,
    title: `v${id - 10}.0`,
    description: 'Milestone description.',
    state: 'active',
    start_date: '2024-05-01',
    due_date: '2024-06-30',
    expired: false,
    created_at: CREATED,
    updated_at: UPDATED,
    web_url: `${WEB}/group/project/-/milestones/${id - 10}`,
  };
}

export function boardList(id: number): object {
  const lists: Record<number, object> = {
    1: { id: 1, label: { id: 5, name: 'Doing', color: '#F0AD4E' }, position: 0, list_type: 'label', max_issue_count: 0 },
    2: { id: 2, assignee: { id: 2, username: 'bob', name: 'Bob Builder' }, position: 1, list_type: 'assignee', max_issue_count: 0 },
    3: { id: 3, milestone: { id: 11, title: 'v1.0' }, position: 2, list_type: 'milestone', max_issue_count: 0 },
  };
  return (
    lists[id] ?? { id, label: { id: 6, name: `List ${id}`, color: '#5CB85C' }, position: id - 1, list_type: 'label', max_issue_count: 0 }
  );
}

export function board(id: number): object {
  return {
    id,
    name: `Board ${id}`,
    project: { id: 42, name: 'project', path_with_namespace: 'group/project' },
    milestone: { id: 11, title: 'v1.0' },
    assignee: null,
    labels: [{ id: 5, name: 'Doing', color: '#F0AD4E' }],
    lists: [boardList(1), boardList(2), boardList(3)],
    web_url: `${WEB}/group/project/-/boards/${id}`,
  };
}

export function timeStats(): object {
  return { time_estimate: 3600, total_time_spent: 1800, human_time_estimate: '1h', human_total_time_spent: '30m' };
}

export function approvals(iid: number): object {
  return {
    id: 2000 + iid,
    iid,
    project_id: 42,
    title: `Merge request ${iid}`,
    state: 'opened',
    approved: false,
    approvals_required: 2,
    approvals_left: 1,
    approved_by: [{ user: carol }],
    suggested_approvers: [bob],
    approvers: [],
    approver_groups: [],
    approval_rules_overwritten: false,
  };
}

export function approvalRule(id: number): object {
  return {
    id,
    name: id === 1 ? 'All Members' : `Security ${id}`,
    rule_type: id === 1 ? 'any_approver' : 'regular',
    eligible_approvers: [bob, carol],
    approvals_required: 1,
    users: [bob],
    groups: [{ id: 9, name: 'group', full_path: 'group' }],
    contains_hidden_groups: false,
  };
}

export function draftNote(id: number): object {
  return {
    id,
    author_id: 1,
    merge_request_id: 2001,
    resolve_discussion: false,
    discussion_id: null,
    note: `Draft comment ${id}`,
    commit_id: null,
    line_code: null,
    position:
      id === 1
        ? {
            base_sha: BASE_SHA,
            start_sha: START_SHA,
            head_sha: SHA,
            old_path: 'src/app.ts',
            new_path: 'src/app.ts',
            position_type: 'text',
            old_line: null,
            new_line: 10,
          }
        : null,
  };
}

export function note(id: number, body: string, noteableType = 'Issue'): object {
  return {
    id,
    type: null,
    body,
    author: alice,
    created_at: CREATED,
    updated_at: UPDATED,
    system: false,
    noteable_id: 1001,
    noteable_type: noteableType,
    resolvable: false,
  };
}

export function discussion(id: string, resolved = false): object {
  return {
    id,
    individual_note: false,
    notes: [
      {
        id: 900,
        type: 'DiffNote',
        body: 'Please rename this variable to something clearer.',
        author: carol,
        created_at: CREATED,
        updated_at: CREATED,
        system: false,
        resolvable: true,
        resolved,
        position: { new_path: 'src/app.ts', new_line: 12, old_path: 'src/app.ts', old_line: null, position_type: 'text' },
      },
      {
        id: 901,
        type: 'DiscussionNote',
        body: 'Done.',
        author: alice,
        created_at: UPDATED,
        updated_at: UPDATED,
        system: false,
        resolvable: true,
        resolved,
      },
    ],
  };
}

export function variable(key: string, value = 'variable-secret-value'): object {
  return {
    variable_type: 'env_var',
    key,
    value,
    protected: true,
    masked: key.includes('SECRET'),
    hidden: false,
    raw: false,
    environment_scope: '*',
    description: null,
  };
}

export function deployKey(id: number): object {
  return {
    id,
    title: `Deploy key ${id}`,
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFSjWd1zGD2nUX7yOLsOP6vXcGy5bQ3m4tJQk8B2Ln3Z deploy@example',
    fingerprint: id === 1 ? '4a:9d:64:15:ed:3a:e6:07:6e:89:36:b3:3b:03:05:d9' : null,
    fingerprint_sha256: 'SHA256:Jrs3LD1Ji30xNLtTVf9NDCj7kkBgPBb2pjvTZ3HfIgU',
    created_at: CREATED,
    expires_at: null,
    can_push: id !== 1,
  };
}

export function deployToken(id: number): object {
  return {
    id,
    name: `deployer-${id}`,
    username: `gitlab+deploy-token-${id}`,
    expires_at: id === 1 ? null : '2025-01-01T00:00:00.000Z',
    scopes: ['read_repository', 'read_registry'],
    revoked: id === 2,
    expired: false,
  };
}

export function featureFlag(name: string): object {
  return {
    name,
    description: `Flag ${name}`,
    active: true,
    version: 'new_version_flag',
    created_at: CREATED,
    updated_at: UPDATED,
    scopes: [],
    strategies: [
      { id: 1, name: 'default', parameters: {}, scopes: [{ id: 1, environment_scope: 'production' }], user_list: null },
      { id: 2, name: 'gradualRolloutUserId', parameters: { groupId: 'default', percentage: '25' }, scopes: [], user_list: null },
    ],
  };
}

/** A user list: `iid` is what the API addresses it by; `id` is the global id, deliberately different. */
export function featureFlagUserList(iid: number): object {
  return {
    id: 100 + iid,
    iid,
    project_id: 42,
    name: `beta-users-${iid}`,
    user_xids: 'user1,user2,user3',
    created_at: CREATED,
    updated_at: UPDATED,
  };
}

export function members(): object[] {
  return [
    { ...alice, access_level: 50, created_at: CREATED, expires_at: null },
    { ...bob, access_level: 30, created_at: CREATED, expires_at: '2025-01-01' },
  ];
}

export function linkedIssue(iid: number, linkType: string): object {
  return { ...issue('group/project', iid), issue_link_id: 80 + iid, link_type: linkType, link_created_at: CREATED };
}

export function approvalState(): object {
  return {
    approval_rules_overwritten: false,
    rules: [
      { ...approvalRule(1), approved: true, approved_by: [carol] },
      { ...approvalRule(2), approvals_required: 2, approved: false, approved_by: [] },
    ],
  };
}

const FILE_TEXT = 'export const answer = 42;\n';

export function repositoryFile(path: string): object {
  return {
    file_name: path.split('/').pop(),
    file_path: path,
    size: FILE_TEXT.length,
    encoding: 'base64',
    content: Buffer.from(FILE_TEXT).toString('base64'),
    content_sha256: '4c294617b60715c1d218e61164a3abd4808a4284cbc30e6728a01ad9aada4481',
    ref: 'main',
    blob_id: '79f7bbd25901e8334750839545a9bd021f0e4c83',
    commit_id: SHA,
    last_commit_id: BASE_SHA,
    execute_filemode: false,
  };
}

export function tree(): object[] {
  return [
    { id: 'a1e8f8d745cc87e3a9248358d9352bb7f9a0aeba', name: 'src', type: 'tree', path: 'src', mode: '040000' },
    { id: '4535904260b1082e14f867f7a24fd8c21495bde3', name: 'README.md', type: 'blob', path: 'README.md', mode: '100644' },
  ];
}

export function compare(from: string, to: string): object {
  return {
    commit: commit(2),
    commits: [commit(1), commit(2)],
    diffs: mergeRequestDiffs(),
    compare_timeout: false,
    compare_same_ref: from === to,
    web_url: `${WEB}/group/project/-/compare/${from}...${to}`,
  };
}

/** Search results in the shape of each documented scope. */
export function searchResults(scope: string | undefined): object[] {
  switch (scope) {
    case 'projects':
      return [project('group/project')];
    case 'issues':
      return [issue('group/project', 1)];
    case 'merge_requests':
      return [mergeRequest('group/project', 1)];
    case 'milestones':
      return [milestone(11)];
    case 'users':
      return [bob];
    case 'commits':
      return [commit(1)];
    case 'blobs':
    case 'wiki_blobs':
      return [
        {
          basename: 'app',
          data: 'export const answer = 42;',
          path: 'src/app.ts',
          filename: 'src/app.ts',
          ref: 'main',
          startline: 3,
          project_id: 42,
        },
      ];
    case 'notes':
      return [note(800, 'a note that matches')];
    default:
      return [];
  }
}

export function wikiPage(slug: string, withContent = true): object {
  const title = slug.split('/').pop() ?? slug;
  return {
    format: 'markdown',
    slug,
    title,
    encoding: 'UTF-8',
    ...(withContent ? { content: `# ${title}\n\nHow we work.` } : {}),
  };
}

export { BASE_SHA, SHA, START_SHA };
