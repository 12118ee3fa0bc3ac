import type { ActionCase } from './action-case-fixture.js';

const P = '/projects/group%2Fproject';
const project = 'group/project';
const G = '/groups/group';

export const configCases: ActionCase[] = [
  // gitlab_deploy_key
  {
    tool: 'gitlab_deploy_key',
    args: { action: 'list', project },
    method: 'GET',
    path: `${P}/deploy_keys`,
    output: /#1 Deploy key 1 \(read-only\) 4a:9d:64[\s\S]*#2 Deploy key 2 \(read-write\) SHA256:Jrs3/,
  },
  {
    tool: 'gitlab_deploy_key',
    args: { action: 'get', project, key_id: 2 },
    method: 'GET',
    path: `${P}/deploy_keys/2`,
    output: /Access: read-write\nFingerprint: SHA256:/,
  },
  {
    tool: 'gitlab_deploy_key',
    args: { action: 'create', project, title: 'CI', key: 'ssh-ed25519 AAAAC3Nza deploy@ci' },
    method: 'POST',
    path: `${P}/deploy_keys`,
    body: { title: 'CI', key: 'ssh-ed25519 AAAAC3Nza deploy@ci', can_push: false },
  },
  {
    tool: 'gitlab_deploy_key',
    args: { action: 'update', project, key_id: 2, can_push: false },
    method: 'PUT',
    path: `${P}/deploy_keys/2`,
    body: { can_push: false },
    output: /read-only/,
  },
  { tool: 'gitlab_deploy_key', args: { action: 'delete', project, key_id: 2 }, method: 'DELETE', path: `${P}/deploy_keys/2` },
  { tool: 'gitlab_deploy_key', args: { action: 'enable', project, key_id: 2 }, method: 'POST', path: `${P}/deploy_keys/2/enable` },

  // gitlab_deploy_token
  {
    tool: 'gitlab_deploy_token',
    args: { action: 'list', project },
    method: 'GET',
    path: `${P}/deploy_tokens`,
    output: /#1 deployer-1 @gitlab\+deploy-token-1 scopes: read_repository, read_registry; expires never\n#2 deployer-2 \[REVOKED\]/,
  },
  {
    tool: 'gitlab_deploy_token',
    args: { action: 'get', group: 'group', token_id: 2 },
    method: 'GET',
    path: `${G}/deploy_tokens/2`,
    output: /Expires: 2025-01-01\nStatus: revoked/,
  },
  {
    tool: 'gitlab_deploy_token',
    args: { action: 'create', project, name: 'ci', scopes: ['read_registry'], expires_at: '2025-12-31' },
    method: 'POST',
    path: `${P}/deploy_tokens`,
    body: { name: 'ci', scopes: ['read_registry'], expires_at: '2025-12-31' },
    output: /cannot be retrieved later[\s\S]*Token: gldt-deploy-token-secret\nRegistry login: docker login 127\.0\.0\.1:\d+/,
  },
  { tool: 'gitlab_deploy_token', args: { action: 'delete', project, token_id: 2 }, method: 'DELETE', path: `${P}/deploy_tokens/2` },

  // gitlab_feature_flag
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'list', project, scope: 'enabled' },
    method: 'GET',
    path: `${P}/feature_flags`,
    query: { scope: 'enabled' },
    output: /new_checkout \[active\] new_version_flag/,
  },
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'get', project, name: 'dark_mode' },
    method: 'GET',
    path: `${P}/feature_flags/dark_mode`,
    output: /Strategies:\n- default on production\n- gradualRolloutUserId on \* \{"groupId":"default","percentage":"25"\}/,
  },
  {
    tool: 'gitlab_feature_flag',
    args: {
      action: 'create',
      project,
      name: 'beta',
      active: false,
      strategies: [{ name: 'userWithId', parameters: { userIds: '1,2' }, scopes: [{ environment_scope: 'staging' }] }],
    },
    method: 'POST',
    path: `${P}/feature_flags`,
    body: {
      name: 'beta',
      version: 'new_version_flag',
      active: false,
      strategies: [{ name: 'userWithId', parameters: { userIds: '1,2' }, scopes: [{ environment_scope: 'staging' }] }],
    },
    output: /Created feature flag beta \(inactive\)/,
  },
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'update', project, name: 'beta', active: true },
    method: 'PUT',
    path: `${P}/feature_flags/beta`,
    body: { active: true },
  },
  { tool: 'gitlab_feature_flag', args: { action: 'delete', project, name: 'beta' }, method: 'DELETE', path: `${P}/feature_flags/beta` },
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'list-user-lists', project },
    method: 'GET',
    path: `${P}/feature_flags_user_lists`,
    output: /beta-users-1 \(list_iid 1, 3 users\)/,
  },
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'get-user-list', project, list_iid: 2 },
    method: 'GET',
    path: `${P}/feature_flags_user_lists/2`,
    output: /# beta-users-2\nList iid: 2\nUsers: user1, user2, user3/,
  },
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'create-user-list', project, list_name: 'testers', user_xids: 'u1,u2' },
    method: 'POST',
    path: `${P}/feature_flags_user_lists`,
    body: { name: 'testers', user_xids: 'u1,u2' },
    output: /testers \(list_iid 3, 2 users\)/,
  },
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'update-user-list', project, list_iid: 3, user_xids: 'u1' },
    method: 'PUT',
    path: `${P}/feature_flags_user_lists/3`,
    body: { user_xids: 'u1' },
  },
  {
    tool: 'gitlab_feature_flag',
    args: { action: 'delete-user-list', project, list_iid: 3 },
    method: 'DELETE',
    path: `${P}/feature_flags_user_lists/3`,
  },
];
