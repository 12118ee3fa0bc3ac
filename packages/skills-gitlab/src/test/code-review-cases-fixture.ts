import type { ActionCase } from './action-case-fixture.js';

const P = '/projects/group%2Fproject';
const project = 'group/project';
/** `diff_refs` of every merge request the stand-in serves. */
const refs = {
  base_sha: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d',
  start_sha: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
  head_sha: '8f2c1e4d9b7a6c5e3f1d2b4a6c8e0f1a2b3c4d5e',
};
const thread = '6a9c1750b37d513a43987b574953fceb50b03ce7';

export const codeReviewCases: ActionCase[] = [
  // gitlab_approval
  {
    tool: 'gitlab_approval',
    args: { action: 'status', project, iid: 4 },
    method: 'GET',
    path: `${P}/merge_requests/4/approvals`,
    output: /Status: pending\nRequired: 2\nRemaining: 1\nApproved by: @carol \(Carol Reviewer\)\nSuggested approvers: @bob \(Bob Builder\)/,
  },
  {
    tool: 'gitlab_approval',
    args: { action: 'approve', project, iid: 4, sha: refs.head_sha },
    method: 'POST',
    path: `${P}/merge_requests/4/approve`,
    body: { sha: refs.head_sha },
    output: /Approved MR !4; 0 approval/,
  },
  { tool: 'gitlab_approval', args: { action: 'unapprove', project, iid: 4 }, method: 'POST', path: `${P}/merge_requests/4/unapprove` },
  {
    tool: 'gitlab_approval',
    args: { action: 'rules', project, iid: 4 },
    method: 'GET',
    path: `${P}/merge_requests/4/approval_rules`,
    output: /All Members \(#1, any_approver\): 1 required\n {2}eligible: @bob, @carol; groups: group/,
  },
  { tool: 'gitlab_approval', note: 'project level', args: { action: 'rules', project }, method: 'GET', path: `${P}/approval_rules` },
  {
    tool: 'gitlab_approval',
    args: { action: 'create-rule', project, name: 'Security', approvals_required: 0, users: [2], groups: [9] },
    method: 'POST',
    path: `${P}/approval_rules`,
    body: { name: 'Security', approvals_required: 0, user_ids: [2], group_ids: [9] },
  },
  { tool: 'gitlab_approval', args: { action: 'delete-rule', project, rule_id: 2 }, method: 'DELETE', path: `${P}/approval_rules/2` },

  // gitlab_draft
  {
    tool: 'gitlab_draft',
    args: { action: 'list', project, iid: 4 },
    method: 'GET',
    path: `${P}/merge_requests/4/draft_notes`,
    output: /#1 \[src\/app.ts:10\]: Draft comment 1\n#2: Draft comment 2/,
  },
  {
    tool: 'gitlab_draft',
    args: { action: 'add', project, iid: 4, body: 'Nit' },
    method: 'POST',
    path: `${P}/merge_requests/4/draft_notes`,
    body: { note: 'Nit' },
  },
  {
    tool: 'gitlab_draft',
    note: 'line comment on the old file',
    args: { action: 'add', project, iid: 4, body: 'Why removed?', path: 'src/app.ts', line: 3, line_type: 'old' },
    method: 'POST',
    path: `${P}/merge_requests/4/draft_notes`,
    body: {
      note: 'Why removed?',
      position: { ...refs, position_type: 'text', new_path: 'src/app.ts', old_path: 'src/app.ts', old_line: 3 },
    },
  },
  {
    tool: 'gitlab_draft',
    args: { action: 'update', project, iid: 4, draft_id: 2, body: 'Better' },
    method: 'PUT',
    path: `${P}/merge_requests/4/draft_notes/2`,
    body: { note: 'Better' },
  },
  {
    tool: 'gitlab_draft',
    args: { action: 'delete', project, iid: 4, draft_id: 2 },
    method: 'DELETE',
    path: `${P}/merge_requests/4/draft_notes/2`,
  },
  {
    tool: 'gitlab_draft',
    args: { action: 'publish', project, iid: 4 },
    method: 'POST',
    path: `${P}/merge_requests/4/draft_notes/bulk_publish`,
    output: /Published all draft notes of MR !4/,
  },

  // gitlab_discussion
  {
    tool: 'gitlab_discussion',
    args: { action: 'list', project, target_type: 'mr', iid: 4 },
    method: 'GET',
    path: `${P}/merge_requests/4/discussions`,
    output: new RegExp(`${thread} \\(2 notes, unresolved\\) @carol: Please rename[\\s\\S]*\\(2 notes, resolved\\)`),
  },
  {
    tool: 'gitlab_discussion',
    args: { action: 'get', project, target_type: 'issue', iid: 4, discussion_id: thread },
    method: 'GET',
    path: `${P}/issues/4/discussions/${thread}`,
    output: /@carol 2024-05-01 \[on src\/app.ts:12\]:\nPlease rename this variable to something clearer.\n\n@alice 2024-05-02:\nDone./,
  },
  {
    tool: 'gitlab_discussion',
    args: { action: 'create', project, target_type: 'mr', iid: 4, body: 'Off by one?', path: 'src/app.ts', line: 7 },
    method: 'POST',
    path: `${P}/merge_requests/4/discussions`,
    body: {
      body: 'Off by one?',
      position: { ...refs, position_type: 'text', new_path: 'src/app.ts', old_path: 'src/app.ts', new_line: 7 },
    },
    output: /on src\/app.ts:7/,
  },
  {
    tool: 'gitlab_discussion',
    note: 'issue ignores path and line',
    args: { action: 'create', project, target_type: 'issue', iid: 4, body: 'Question', path: 'x', line: 1 },
    method: 'POST',
    path: `${P}/issues/4/discussions`,
    body: { body: 'Question' },
  },
  {
    tool: 'gitlab_discussion',
    args: { action: 'reply', project, target_type: 'mr', iid: 4, discussion_id: thread, body: 'Fixed' },
    method: 'POST',
    path: `${P}/merge_requests/4/discussions/${thread}/notes`,
    body: { body: 'Fixed' },
  },
  {
    tool: 'gitlab_discussion',
    args: { action: 'resolve', project, target_type: 'mr', iid: 4, discussion_id: thread },
    method: 'PUT',
    path: `${P}/merge_requests/4/discussions/${thread}`,
    body: { resolved: true },
    output: /now resolved/,
  },
  {
    tool: 'gitlab_discussion',
    args: { action: 'unresolve', project, target_type: 'mr', iid: 4, discussion_id: thread },
    method: 'PUT',
    path: `${P}/merge_requests/4/discussions/${thread}`,
    body: { resolved: false },
    output: /now unresolved/,
  },
];
