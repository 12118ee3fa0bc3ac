import type { ActionCase } from './action-case-fixture.js';

const P = '/projects/group%2Fproject';
const project = 'group/project';
const G = '/groups/group%2Fteam';
const group = 'group/team';

export const projectManagementCases: ActionCase[] = [
  // gitlab_epic (the stand-in reports GitLab 18.2: work items; the REST path is tested on an older version)
  {
    tool: 'gitlab_epic',
    args: { action: 'list', group, author: 'me', labels: ['roadmap'] },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['group'],
      variables: { fullPath: group, state: 'opened', search: null, labelName: ['roadmap'], authorUsername: 'alice', first: 20 },
    },
    output: /Found 2 epics:\n\[opened\] &1 Epic 1 \(2024-05-01 → 2024-07-01\)/,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'get', group, iid: 2 },
    method: 'POST',
    path: '/graphql',
    graphql: { fields: ['namespace'], variables: { fullPath: group, iid: '2' } },
    output: /# &2 Epic 2\nState: opened\nAuthor: @alice[\s\S]*Labels: roadmap[\s\S]*API: GraphQL work items\n\nA large piece of work\./,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'create', group, title: 'Q3', start_date: '2024-07-01', labels: ['backend'], parent_iid: 1 },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['workItemCreate'],
      variables: {
        input: {
          namespacePath: group,
          title: 'Q3',
          workItemTypeId: 'gid://gitlab/WorkItems::Type/8',
          startAndDueDateWidget: { isFixed: true, startDate: '2024-07-01' },
          hierarchyWidget: { parentId: 'gid://gitlab/WorkItem/701' },
          labelsWidget: { labelIds: ['gid://gitlab/GroupLabel/6'] },
        },
      },
    },
    output: /Created epic &8: Q3 \(opened\)/,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'update', group, iid: 2, due_date: '2024-09-30', labels: ['backend'] },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['workItemUpdate'],
      variables: {
        input: {
          id: 'gid://gitlab/WorkItem/702',
          startAndDueDateWidget: { isFixed: true, dueDate: '2024-09-30' },
          labelsWidget: { addLabelIds: ['gid://gitlab/GroupLabel/6'], removeLabelIds: ['gid://gitlab/GroupLabel/5'] },
        },
      },
    },
    output: /Updated epic &2/,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'close', group, iid: 2 },
    method: 'POST',
    path: '/graphql',
    graphql: { fields: ['workItemUpdate'], variables: { input: { id: 'gid://gitlab/WorkItem/702', stateEvent: 'CLOSE' } } },
    output: /Epic &2 is now closed/,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'reopen', group, iid: 2 },
    method: 'POST',
    path: '/graphql',
    graphql: { fields: ['workItemUpdate'], variables: { input: { id: 'gid://gitlab/WorkItem/702', stateEvent: 'REOPEN' } } },
    output: /Epic &2 is now opened/,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'add-issue', group, iid: 2, issue_id: 1001 },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['workItemUpdate'],
      variables: { input: { id: 'gid://gitlab/WorkItem/702', hierarchyWidget: { childrenIds: ['gid://gitlab/WorkItem/1001'] } } },
    },
    output: /Added issue 1001 to epic &2/,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'remove-issue', group, iid: 2, issue_id: 1001 },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['workItemUpdate'],
      variables: { input: { id: 'gid://gitlab/WorkItem/1001', hierarchyWidget: { parentId: null } } },
    },
    output: /Removed issue 1001 from epic &2/,
  },
  {
    tool: 'gitlab_epic',
    args: { action: 'list-issues', group, iid: 2 },
    method: 'POST',
    path: '/graphql',
    graphql: { fields: ['namespace'], variables: { fullPath: group, iid: '2', first: 20 } },
    output: /group\/project#1 Issue number 1 \(issue_id 1001\)/,
  },

  // gitlab_iteration
  {
    tool: 'gitlab_iteration',
    args: { action: 'list', group, state: 'current', include_ancestors: true },
    method: 'GET',
    path: `${G}/iterations`,
    query: { state: 'current', include_ancestors: 'true', per_page: '100' },
    output: /\[>\] #51 Sprint 1[\s\S]*\[\*\] #52 Sprint 2[\s\S]*\[x\] #53 Sprint 3/,
  },
  {
    tool: 'gitlab_iteration',
    args: { action: 'get', group, iteration_id: 52 },
    method: 'POST',
    path: '/graphql',
    graphql: { fields: ['iteration'], variables: { id: 'gid://gitlab/Iteration/52' } },
    output: /# #52 Sprint 2\nState: current[\s\S]*Cadence: #1 Cadence 1/,
  },
  {
    tool: 'gitlab_iteration',
    args: { action: 'create', group, title: 'Sprint 9', start_date: '2024-08-01', due_date: '2024-08-14', cadence_id: 2 },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['iterationCreate'],
      variables: {
        input: {
          groupPath: group,
          title: 'Sprint 9',
          startDate: '2024-08-01',
          dueDate: '2024-08-14',
          iterationsCadenceId: 'gid://gitlab/Iterations::Cadence/2',
        },
      },
    },
    output: /Created iteration #54: Sprint 9/,
  },
  {
    tool: 'gitlab_iteration',
    args: { action: 'update', group, iteration_id: 52, description: 'Focus' },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['updateIteration'],
      variables: { input: { groupPath: group, id: 'gid://gitlab/Iteration/52', description: 'Focus' } },
    },
    output: /Updated iteration #52/,
  },
  {
    tool: 'gitlab_iteration',
    args: { action: 'delete', group, iteration_id: 52 },
    method: 'POST',
    path: '/graphql',
    graphql: { fields: ['iterationDelete'], variables: { input: { id: 'gid://gitlab/Iteration/52' } } },
    output: /Deleted iteration #52/,
  },
  {
    tool: 'gitlab_iteration',
    args: { action: 'list-cadences', group },
    method: 'POST',
    path: '/graphql',
    graphql: { fields: ['group'], variables: { fullPath: group } },
    output: /#1 Cadence 1 \(2 weeks, automatic\)\n#2 Cadence 2 \(2 weeks, manual\)/,
  },
  {
    tool: 'gitlab_iteration',
    args: { action: 'create-cadence', group, title: 'Biweekly', start_date: '2024-08-01', duration_in_weeks: 2 },
    method: 'POST',
    path: '/graphql',
    graphql: {
      fields: ['iterationCadenceCreate'],
      variables: {
        input: { groupPath: group, title: 'Biweekly', startDate: '2024-08-01', durationInWeeks: 2, automatic: false, active: true },
      },
    },
    output: /Created cadence #3: Biweekly/,
  },

  // gitlab_milestone
  {
    tool: 'gitlab_milestone',
    args: { action: 'list', project, state: 'active' },
    method: 'GET',
    path: `${P}/milestones`,
    query: { state: 'active' },
    output: /\[active\] #11 v1.0 \(2024-05-01 to 2024-06-30\)/,
  },
  { tool: 'gitlab_milestone', note: 'group', args: { action: 'list', group, project }, method: 'GET', path: `${G}/milestones` },
  {
    tool: 'gitlab_milestone',
    args: { action: 'get', project, milestone_id: 12 },
    method: 'GET',
    path: `${P}/milestones/12`,
    output: /# v2.0\nID: 12\nIID: 2/,
  },
  {
    tool: 'gitlab_milestone',
    args: { action: 'create', group, title: 'v3.0', due_date: '2024-12-31' },
    method: 'POST',
    path: `${G}/milestones`,
    body: { title: 'v3.0', due_date: '2024-12-31' },
  },
  {
    tool: 'gitlab_milestone',
    args: { action: 'update', project, milestone_id: 12, description: 'Scope' },
    method: 'PUT',
    path: `${P}/milestones/12`,
    body: { description: 'Scope' },
  },
  {
    tool: 'gitlab_milestone',
    args: { action: 'close', project, milestone_id: 12 },
    method: 'PUT',
    path: `${P}/milestones/12`,
    body: { state_event: 'close' },
    output: /is now closed/,
  },
  {
    tool: 'gitlab_milestone',
    args: { action: 'issues', project, milestone_id: 12 },
    method: 'GET',
    path: `${P}/milestones/12/issues`,
    output: /group\/project#1/,
  },
  {
    tool: 'gitlab_milestone',
    args: { action: 'merge-requests', group, milestone_id: 12 },
    method: 'GET',
    path: `${G}/milestones/12/merge_requests`,
    output: /group\/project!1/,
  },

  // gitlab_board
  { tool: 'gitlab_board', args: { action: 'list', project }, method: 'GET', path: `${P}/boards`, output: /#1 Board 1 \(3 lists\)/ },
  {
    tool: 'gitlab_board',
    args: { action: 'get', project, board_id: 1 },
    method: 'GET',
    path: `${P}/boards/1`,
    output: /#1: Doing \(position: 0\)\n#2: @bob \(position: 1\)\n#3: %v1.0 \(position: 2\)/,
  },
  { tool: 'gitlab_board', args: { action: 'create', group, name: 'Team' }, method: 'POST', path: `${G}/boards`, body: { name: 'Team' } },
  {
    tool: 'gitlab_board',
    note: 'scoped to labels: created by name, then updated',
    args: { action: 'create', project, name: 'Team', labels: ['Doing', 'bug'] },
    method: 'PUT',
    path: `${P}/boards/3`,
    body: { labels: 'Doing,bug' },
    dryRunPath: `${P}/boards/:board_id`,
    output: /Created board #3 Team, scoped to labels Doing, bug/,
  },
  {
    tool: 'gitlab_board',
    args: { action: 'update', project, board_id: 2, labels: ['a', 'b'] },
    method: 'PUT',
    path: `${P}/boards/2`,
    body: { labels: 'a,b' },
  },
  { tool: 'gitlab_board', args: { action: 'delete', project, board_id: 2 }, method: 'DELETE', path: `${P}/boards/2` },
  {
    tool: 'gitlab_board',
    args: { action: 'list-lists', project, board_id: 1 },
    method: 'GET',
    path: `${P}/boards/1/lists`,
    output: /Found 3 board lists/,
  },
  {
    tool: 'gitlab_board',
    args: { action: 'create-list', project, board_id: 1, milestone_id: 11 },
    method: 'POST',
    path: `${P}/boards/1/lists`,
    body: { milestone_id: 11 },
  },
  {
    tool: 'gitlab_board',
    args: { action: 'update-list', project, board_id: 1, list_id: 2, position: 0 },
    method: 'PUT',
    path: `${P}/boards/1/lists/2`,
    body: { position: 0 },
  },
  {
    tool: 'gitlab_board',
    args: { action: 'delete-list', project, board_id: 1, list_id: 2 },
    method: 'DELETE',
    path: `${P}/boards/1/lists/2`,
  },

  // gitlab_time
  {
    tool: 'gitlab_time',
    args: { action: 'estimate', project, target_type: 'issue', iid: 3, duration: '3h' },
    method: 'POST',
    path: `${P}/issues/3/time_estimate`,
    body: { duration: '3h' },
    output: /Estimate of issue #3 set to 3h/,
  },
  {
    tool: 'gitlab_time',
    args: { action: 'reset-estimate', project, target_type: 'mr', iid: 3 },
    method: 'POST',
    path: `${P}/merge_requests/3/reset_time_estimate`,
    output: /MR !3/,
  },
  {
    tool: 'gitlab_time',
    args: { action: 'spend', project, target_type: 'issue', iid: 3, duration: '1h', summary: 'review' },
    method: 'POST',
    path: `${P}/issues/3/add_spent_time`,
    body: { duration: '1h', summary: 'review' },
    output: /Added 1h to issue #3; total spent 1h 30m/,
  },
  {
    tool: 'gitlab_time',
    args: { action: 'reset-spent', project, target_type: 'issue', iid: 3 },
    method: 'POST',
    path: `${P}/issues/3/reset_spent_time`,
  },
  {
    tool: 'gitlab_time',
    args: { action: 'stats', project, target_type: 'mr', iid: 3 },
    method: 'GET',
    path: `${P}/merge_requests/3/time_stats`,
    output: /Estimate: 1h\nSpent: 30m\nEstimate \(s\): 3600\nSpent \(s\): 1800/,
  },
];
