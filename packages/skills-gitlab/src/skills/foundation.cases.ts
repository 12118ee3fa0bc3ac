import { STAND_IN_USERS } from '@nexus/test-utils';
import type { ActionCase } from '../test-harness.js';

const P = '/projects/group%2Fproject';
const project = 'group/project';

export const foundationCases: ActionCase[] = [
  // gitlab_repo
  { tool: 'gitlab_repo', args: { action: 'get', project: 'group/sub/tool' }, method: 'GET', path: '/projects/group%2Fsub%2Ftool', output: /# group\/sub\/tool[\s\S]*Default branch: main[\s\S]*Clone \(SSH\): git@/ },
  { tool: 'gitlab_repo', args: { action: 'list', owned: true }, method: 'GET', path: '/projects', query: { owned: 'true', per_page: '20' }, output: /Found 3 projects:\n\[private\] group\/project/ },
  { tool: 'gitlab_repo', args: { action: 'search', search: 'sub', limit: 5 }, method: 'GET', path: '/projects', query: { search: 'sub', per_page: '5' }, output: /Found 1 projects:\ngroup\/sub\/tool — A project used/ },
  { tool: 'gitlab_repo', args: { action: 'fork', project, namespace: 'alice' }, method: 'POST', path: `${P}/fork`, body: { namespace_path: 'alice' }, output: /Forked to alice\/project/ },
  { tool: 'gitlab_repo', args: { action: 'whoami' }, method: 'GET', path: '/user', output: /Username: @alice[\s\S]*Email: alice@example.com[\s\S]*Configured identity: @alice/ },

  // gitlab_issue
  { tool: 'gitlab_issue', args: { action: 'list', project, labels: ['bug', 'ui'], search: 'crash', assignee_username: 'me' }, method: 'GET', path: `${P}/issues`, query: { scope: 'all', state: 'opened', labels: 'bug,ui', search: 'crash', assignee_username: 'alice' }, output: /Found 3 issues:\n\[opened\] #1 Issue number 1 \[bug, backend\]/ },
  { tool: 'gitlab_issue', note: 'all projects', args: { action: 'list', state: 'all', assignee_username: 'None' }, method: 'GET', path: '/issues', query: { scope: 'all', assignee_id: 'None' }, output: /other\/library#2/ },
  { tool: 'gitlab_issue', args: { action: 'get', project, iid: 7 }, method: 'GET', path: `${P}/issues/7`, output: /# #7 Issue number 7\nState: opened\nAuthor: @alice[\s\S]*Milestone: v1.0[\s\S]*Steps to reproduce/ },
  { tool: 'gitlab_issue', args: { action: 'create', project, title: 'Crash', description: 'Boom', labels: ['bug', 'p1'], assignees: ['@bob'] }, method: 'POST', path: `${P}/issues`, body: { title: 'Crash', description: 'Boom', labels: 'bug,p1', assignee_ids: [STAND_IN_USERS.bob.id] }, output: /Created issue #12: Crash/ },
  { tool: 'gitlab_issue', args: { action: 'update', project, iid: 3, title: 'New', assignees: [] }, method: 'PUT', path: `${P}/issues/3`, body: { title: 'New', assignee_ids: [] }, output: /Updated issue #3: New/ },
  { tool: 'gitlab_issue', args: { action: 'close', project, iid: 3 }, method: 'PUT', path: `${P}/issues/3`, body: { state_event: 'close' } },
  { tool: 'gitlab_issue', args: { action: 'reopen', project, iid: 3 }, method: 'PUT', path: `${P}/issues/3`, body: { state_event: 'reopen' } },
  { tool: 'gitlab_issue', args: { action: 'comment', project, iid: 3, body: 'Looks good' }, method: 'POST', path: `${P}/issues/3/notes`, body: { body: 'Looks good' }, output: /Commented on issue #3/ },

  // gitlab_mr
  { tool: 'gitlab_mr', args: { action: 'list', project, state: 'merged', reviewer_username: 'carol' }, method: 'GET', path: `${P}/merge_requests`, query: { scope: 'all', state: 'merged', reviewer_username: 'carol' }, output: /!1 Merge request 1\n {2}feature\/login → main/ },
  { tool: 'gitlab_mr', note: 'all projects', args: { action: 'list' }, method: 'GET', path: '/merge_requests', query: { scope: 'all', state: 'opened' }, output: /other\/library!2/ },
  { tool: 'gitlab_mr', args: { action: 'get', project, iid: 1 }, method: 'GET', path: `${P}/merge_requests/1`, output: /Branches: feature\/login → main[\s\S]*Reviewers: @carol[\s\S]*Merge status: mergeable/ },
  { tool: 'gitlab_mr', args: { action: 'create', project, source_branch: 'feat', title: 'Add it', draft: true, squash: true, reviewers: ['carol'] }, method: 'POST', path: `${P}/merge_requests`, body: { source_branch: 'feat', target_branch: 'main', title: 'Draft: Add it', reviewer_ids: [3], squash: true }, output: /Created MR !15/ },
  { tool: 'gitlab_mr', args: { action: 'update', project, iid: 2, target_branch: 'develop', reviewers: [] }, method: 'PUT', path: `${P}/merge_requests/2`, body: { reviewer_ids: [], target_branch: 'develop' } },
  { tool: 'gitlab_mr', args: { action: 'merge', project, iid: 2, squash: false, remove_source_branch: true }, method: 'PUT', path: `${P}/merge_requests/2/merge`, body: { squash: false, should_remove_source_branch: true }, output: /Merged MR !2.*merged/ },
  { tool: 'gitlab_mr', args: { action: 'close', project, iid: 2 }, method: 'PUT', path: `${P}/merge_requests/2`, body: { state_event: 'close' } },
  { tool: 'gitlab_mr', args: { action: 'reopen', project, iid: 2 }, method: 'PUT', path: `${P}/merge_requests/2`, body: { state_event: 'reopen' } },
  { tool: 'gitlab_mr', args: { action: 'comment', project, iid: 2, body: 'LGTM' }, method: 'POST', path: `${P}/merge_requests/2/notes`, body: { body: 'LGTM' } },
  { tool: 'gitlab_mr', args: { action: 'diff', project, iid: 2 }, method: 'GET', path: `${P}/merge_requests/2/diffs`, output: /MR !2 changes \(4 file\(s\), \+4\/-2\):\nM src\/app.ts \(\+2\/-1\)\nA docs\/new.md \(\+2\/-0\)\nR old\/name.ts → new\/name.ts \(\+0\/-0\)\nD gone.txt \(\+0\/-1\)/ },
  { tool: 'gitlab_mr', args: { action: 'commits', project, iid: 2 }, method: 'GET', path: `${P}/merge_requests/2/commits`, output: /Found 2 commits:\n01010101 Alice Example: Commit 1/ },
  { tool: 'gitlab_mr', args: { action: 'pipelines', project, iid: 2 }, method: 'GET', path: `${P}/merge_requests/2/pipelines`, output: /\[success\] #501 main 2024-05-01 09:30/ },

  // gitlab_label
  { tool: 'gitlab_label', args: { action: 'list', project, include_ancestor_groups: false }, method: 'GET', path: `${P}/labels`, query: { include_ancestor_groups: 'false', per_page: '100' }, output: /#d9534f needs review \(priority 1\)/ },
  { tool: 'gitlab_label', args: { action: 'get', project, name: 'needs review' }, method: 'GET', path: `${P}/labels/needs%20review`, output: /# needs review[\s\S]*Open issues: 4/ },
  { tool: 'gitlab_label', args: { action: 'create', project, name: 'p1', color: '#ff0000', priority: 0 }, method: 'POST', path: `${P}/labels`, body: { name: 'p1', color: '#ff0000', priority: 0 }, output: /Created label p1 \(#ff0000\)/ },
  { tool: 'gitlab_label', args: { action: 'update', project, name: 'a/b', new_name: 'c' }, method: 'PUT', path: `${P}/labels/a%2Fb`, body: { new_name: 'c' } },
  { tool: 'gitlab_label', args: { action: 'delete', project, name: 'bug' }, method: 'DELETE', path: `${P}/labels/bug` },

  // gitlab_branch
  { tool: 'gitlab_branch', args: { action: 'list', project, search: 'fe' }, method: 'GET', path: `${P}/repository/branches`, query: { search: 'fe' }, output: /main \(default\) \[protected\] 8f2c1e4d Alice Example/ },
  { tool: 'gitlab_branch', args: { action: 'get', project, name: 'feature/login' }, method: 'GET', path: `${P}/repository/branches/feature%2Flogin`, output: /Latest commit: 8f2c1e4d9b7a by Alice Example <alice@example.com>/ },
  { tool: 'gitlab_branch', args: { action: 'create', project, name: 'fix/x', ref: 'main' }, method: 'POST', path: `${P}/repository/branches`, body: { branch: 'fix/x', ref: 'main' } },
  { tool: 'gitlab_branch', args: { action: 'delete', project, name: 'fix/x' }, method: 'DELETE', path: `${P}/repository/branches/fix%2Fx` },
  { tool: 'gitlab_branch', args: { action: 'protect', project, name: 'release/*', push_level: 'no_access', merge_level: 'developer' }, method: 'POST', path: `${P}/protected_branches`, body: { name: 'release/*', push_access_level: 0, merge_access_level: 30, allow_force_push: false } },
  { tool: 'gitlab_branch', args: { action: 'unprotect', project, name: 'release/*' }, method: 'DELETE', path: `${P}/protected_branches/release%2F%2A` },
  { tool: 'gitlab_branch', args: { action: 'list-protected', project }, method: 'GET', path: `${P}/protected_branches`, output: /main: push maintainer; merge developer; force push no/ },

  // gitlab_tag
  { tool: 'gitlab_tag', args: { action: 'list', project, order_by: 'version' }, method: 'GET', path: `${P}/repository/tags`, query: { order_by: 'version' }, output: /v1.1.0 \[release\] 8f2c1e4d/ },
  { tool: 'gitlab_tag', args: { action: 'get', project, name: 'v1.0.0' }, method: 'GET', path: `${P}/repository/tags/v1.0.0`, output: /Release: v1.0.0: Notes for v1.0.0/ },
  { tool: 'gitlab_tag', args: { action: 'create', project, name: 'v2.0.0', ref: 'main', message: 'Second' }, method: 'POST', path: `${P}/repository/tags`, body: { tag_name: 'v2.0.0', ref: 'main', message: 'Second' }, output: /Created tag v2.0.0 at 8f2c1e4d\./ },
  { tool: 'gitlab_tag', note: 'with release notes', args: { action: 'create', project, name: 'v2.0.0', ref: 'main', release_description: 'Notes' }, method: 'POST', path: `${P}/releases`, body: { tag_name: 'v2.0.0', description: 'Notes' }, output: /with a release/ },
  { tool: 'gitlab_tag', args: { action: 'delete', project, name: 'v2.0.0' }, method: 'DELETE', path: `${P}/repository/tags/v2.0.0` },
  { tool: 'gitlab_tag', args: { action: 'protect', project, name: 'v*', create_level: 'developer' }, method: 'POST', path: `${P}/protected_tags`, body: { name: 'v*', create_access_level: 30 } },
  { tool: 'gitlab_tag', args: { action: 'unprotect', project, name: 'v*' }, method: 'DELETE', path: `${P}/protected_tags/v%2A` },
  { tool: 'gitlab_tag', args: { action: 'list-protected', project }, method: 'GET', path: `${P}/protected_tags`, output: /v\*: create maintainer/ },
];
