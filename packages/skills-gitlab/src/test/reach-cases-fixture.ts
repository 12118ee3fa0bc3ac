import type { ActionCase } from './action-case-fixture.js';

// The reach of issue 16: files, tree, commits and comparisons, search, wiki pages, issue links,
// members, MR rebase and auto-merge, approval state, milestone reopen/delete, releases.
const P = '/projects/group%2Fproject';
const project = 'group/project';
const SHA = '0101010101010101010101010101010101010101';

export const reachCases: ActionCase[] = [
  // gitlab_file
  {
    tool: 'gitlab_file',
    args: { action: 'get', project, file_path: 'src/app.ts' },
    method: 'GET',
    path: `${P}/repository/files/src%2Fapp.ts`,
    query: { ref: 'HEAD' },
    output: /^# src\/app\.ts\nRef: main\nSize: 0\.0 KB\nLast commit: 1a2b3c4d\n\nexport const answer = 42;\n$/,
  },
  {
    tool: 'gitlab_file',
    args: {
      action: 'create',
      project,
      file_path: 'docs/new.md',
      branch: 'docs',
      start_branch: 'main',
      content: '# New',
      commit_message: 'Add docs',
    },
    method: 'POST',
    path: `${P}/repository/files/docs%2Fnew.md`,
    body: { branch: 'docs', commit_message: 'Add docs', start_branch: 'main', content: '# New' },
    output: /Created docs\/new\.md on docs/,
  },
  {
    tool: 'gitlab_file',
    args: { action: 'update', project, file_path: 'README.md', branch: 'main', content: 'x', commit_message: 'Edit', last_commit_id: SHA },
    method: 'PUT',
    path: `${P}/repository/files/README.md`,
    body: { branch: 'main', commit_message: 'Edit', content: 'x', last_commit_id: SHA },
    output: /Updated README\.md on main/,
  },
  {
    tool: 'gitlab_file',
    args: { action: 'delete', project, file_path: 'old.txt', branch: 'main', commit_message: 'Remove' },
    method: 'DELETE',
    path: `${P}/repository/files/old.txt`,
    body: { branch: 'main', commit_message: 'Remove' },
  },
  {
    tool: 'gitlab_file',
    args: {
      action: 'commit',
      project,
      branch: 'feature',
      start_branch: 'main',
      commit_message: 'Two files',
      actions: [
        { action: 'create', file_path: 'a.txt', content: 'a' },
        { action: 'move', file_path: 'b2.txt', previous_path: 'b.txt' },
      ],
    },
    method: 'POST',
    path: `${P}/repository/commits`,
    body: {
      branch: 'feature',
      commit_message: 'Two files',
      start_branch: 'main',
      actions: [
        { action: 'create', file_path: 'a.txt', content: 'a' },
        { action: 'move', file_path: 'b2.txt', previous_path: 'b.txt' },
      ],
    },
    output: /Committed 2 change\(s\) to feature: 09090909 Two files/,
  },

  // gitlab_repo
  {
    tool: 'gitlab_repo',
    args: { action: 'tree', project, path: 'src', ref: 'main', recursive: true },
    method: 'GET',
    path: `${P}/repository/tree`,
    query: { path: 'src', ref: 'main', recursive: 'true' },
    output: /Found 2 entries:\nsrc\/\nREADME\.md/,
  },
  {
    tool: 'gitlab_repo',
    args: { action: 'commits', project, ref: 'main', path: 'src', limit: 2 },
    method: 'GET',
    path: `${P}/repository/commits`,
    query: { ref_name: 'main', path: 'src', per_page: '2' },
    output: /Found 2 commits:\n01010101 2024-05-01 Alice Example: Commit 1/,
  },
  {
    tool: 'gitlab_repo',
    args: { action: 'get-commit', project, sha: SHA },
    method: 'GET',
    path: `${P}/repository/commits/${SHA}/diff`,
    output:
      /# 010101010101 Commit 1\nAuthor: Alice Example <alice@example\.com>[\s\S]*Stats: \+3\/-1[\s\S]*M src\/app\.ts \(\+2\/-1\)\nA docs\/new\.md \(\+2\/-0\)\nR old\/name\.ts → new\/name\.ts/,
  },
  {
    tool: 'gitlab_repo',
    args: { action: 'compare', project, from: 'main', to: 'feature/login' },
    method: 'GET',
    path: `${P}/repository/compare`,
    query: { from: 'main', to: 'feature/login' },
    output: /^main\.\.\.feature\/login: 2 commit\(s\), 4 file\(s\)\n[\s\S]*D gone\.txt \(\+0\/-1\)$/,
  },
  {
    tool: 'gitlab_repo',
    args: { action: 'members', project, search: 'b' },
    method: 'GET',
    path: `${P}/members/all`,
    query: { query: 'b' },
    output: /@alice \(Alice Example\): owner\n@bob \(Bob Builder\): developer, until 2025-01-01/,
  },

  // gitlab_search
  {
    tool: 'gitlab_search',
    args: { action: 'search', scope: 'projects', search: 'proj' },
    method: 'GET',
    path: '/search',
    query: { scope: 'projects', search: 'proj' },
    output: /Found 1 projects in the whole instance:\ngroup\/project/,
  },
  {
    tool: 'gitlab_search',
    note: 'group',
    args: { action: 'search', group: 'group', scope: 'issues', search: 'crash', state: 'opened' },
    method: 'GET',
    path: '/groups/group/search',
    query: { scope: 'issues', search: 'crash', state: 'opened' },
    output: /\[opened\] group\/project#1 Issue number 1/,
  },
  {
    tool: 'gitlab_search',
    note: 'project code',
    args: { action: 'search', project, scope: 'blobs', search: 'answer', ref: 'main' },
    method: 'GET',
    path: `${P}/search`,
    query: { scope: 'blobs', search: 'answer', ref: 'main' },
    output: /src\/app\.ts:3: export const answer = 42;/,
  },

  // gitlab_wiki
  {
    tool: 'gitlab_wiki',
    args: { action: 'list', project },
    method: 'GET',
    path: `${P}/wikis`,
    output: /home — home\nguides\/setup — setup/,
  },
  {
    tool: 'gitlab_wiki',
    args: { action: 'get', project, slug: 'guides/setup' },
    method: 'GET',
    path: `${P}/wikis/guides%2Fsetup`,
    output: /# setup\nSlug: guides\/setup\nFormat: markdown\n\n# setup/,
  },
  {
    tool: 'gitlab_wiki',
    args: { action: 'create', project, title: 'Release process', content: 'Steps' },
    method: 'POST',
    path: `${P}/wikis`,
    body: { title: 'Release process', content: 'Steps' },
    output: /Created wiki page release-process/,
  },
  {
    tool: 'gitlab_wiki',
    args: { action: 'update', project, slug: 'home', content: 'New', format: 'asciidoc' },
    method: 'PUT',
    path: `${P}/wikis/home`,
    body: { content: 'New', format: 'asciidoc' },
  },
  { tool: 'gitlab_wiki', args: { action: 'delete', project, slug: 'home' }, method: 'DELETE', path: `${P}/wikis/home` },

  // gitlab_issue links
  {
    tool: 'gitlab_issue',
    args: { action: 'links', project, iid: 1 },
    method: 'GET',
    path: `${P}/issues/1/links`,
    output: /relates_to group\/project#5 Issue number 5 \[opened\] \(link_id 85\)\nblocks group\/project#6/,
  },
  {
    tool: 'gitlab_issue',
    args: { action: 'link', project, iid: 1, target_iid: 6, link_type: 'blocks' },
    method: 'POST',
    path: `${P}/issues/1/links`,
    body: { target_project_id: project, target_issue_iid: 6, link_type: 'blocks' },
    output: /Linked issue #1 blocks group\/project#6/,
  },
  { tool: 'gitlab_issue', args: { action: 'unlink', project, iid: 1, link_id: 85 }, method: 'DELETE', path: `${P}/issues/1/links/85` },

  // gitlab_mr
  {
    tool: 'gitlab_mr',
    note: 'when the pipeline succeeds',
    args: { action: 'merge', project, iid: 3, auto_merge: true },
    method: 'PUT',
    path: `${P}/merge_requests/3/merge`,
    body: { merge_when_pipeline_succeeds: true },
    output: /MR !3 will be merged when its pipeline succeeds/,
  },
  {
    tool: 'gitlab_mr',
    args: { action: 'cancel-auto-merge', project, iid: 3 },
    method: 'POST',
    path: `${P}/merge_requests/3/cancel_merge_when_pipeline_succeeds`,
    output: /no longer be merged automatically/,
  },
  {
    tool: 'gitlab_mr',
    args: { action: 'rebase', project, iid: 3, skip_ci: true },
    method: 'PUT',
    path: `${P}/merge_requests/3/rebase`,
    body: { skip_ci: true },
    output: /Rebase of MR !3 started/,
  },

  // gitlab_approval
  {
    tool: 'gitlab_approval',
    args: { action: 'approval-state', project, iid: 3 },
    method: 'GET',
    path: `${P}/merge_requests/3/approval_state`,
    output: /\[approved\] All Members[\s\S]*approved by: @carol \(Carol Reviewer\)\n\[pending\] Security 2[\s\S]*approved by: nobody yet/,
  },

  // gitlab_milestone
  {
    tool: 'gitlab_milestone',
    args: { action: 'reopen', project, milestone_id: 12 },
    method: 'PUT',
    path: `${P}/milestones/12`,
    body: { state_event: 'activate' },
    output: /is now active/,
  },
  {
    tool: 'gitlab_milestone',
    args: { action: 'delete', group: 'group', milestone_id: 12 },
    method: 'DELETE',
    path: '/groups/group/milestones/12',
  },

  // gitlab_tag releases
  {
    tool: 'gitlab_tag',
    args: { action: 'list-releases', project },
    method: 'GET',
    path: `${P}/releases`,
    output: /Found 2 releases:\nv1\.1\.0 \(2024-05-01\)/,
  },
  {
    tool: 'gitlab_tag',
    args: { action: 'get-release', project, name: 'v1.0.0' },
    method: 'GET',
    path: `${P}/releases/v1.0.0`,
    output: /# v1\.0\.0\nTag: v1\.0\.0[\s\S]*Notes for v1\.0\.0/,
  },
  {
    tool: 'gitlab_tag',
    args: { action: 'create-release', project, name: 'v2.0.0', ref: 'main', release_name: 'Two', release_description: 'Big' },
    method: 'POST',
    path: `${P}/releases`,
    body: { tag_name: 'v2.0.0', name: 'Two', description: 'Big', ref: 'main' },
    output: /Created release Two for tag v2\.0\.0/,
  },
  {
    tool: 'gitlab_tag',
    args: { action: 'update-release', project, name: 'v1.0.0', release_description: 'Fixed notes' },
    method: 'PUT',
    path: `${P}/releases/v1.0.0`,
    body: { description: 'Fixed notes' },
  },
  {
    tool: 'gitlab_tag',
    args: { action: 'delete-release', project, name: 'v1.0.0' },
    method: 'DELETE',
    path: `${P}/releases/v1.0.0`,
    output: /the tag stays/,
  },
];
