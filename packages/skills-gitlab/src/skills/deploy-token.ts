import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { day, detailText, listText } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { date, integer, text } from '../schema.js';
import { MASK } from '../secret-mask.js';

/** Arguments of `gitlab_deploy_token`. */
export interface GitLabDeployTokenArguments extends GitLabArguments {
  token_id?: number;
  name?: string;
  scopes?: string[];
  expires_at?: string;
  username?: string;
}

interface DeployToken {
  id: number;
  name: string;
  username?: string;
  scopes?: string[];
  created_at?: string;
  expires_at?: string | null;
  revoked?: boolean;
  expired?: boolean;
  token?: string;
}

const SCOPES = ['read_repository', 'read_registry', 'write_registry', 'read_package_registry', 'write_package_registry'];

function describe(token: DeployToken): string {
  return `#${token.id} ${token.name}${token.revoked ? ' [REVOKED]' : ''}${token.expired ? ' [EXPIRED]' : ''} @${token.username ?? '?'} scopes: ${(token.scopes ?? []).join(', ')}; expires ${token.expires_at ? day(token.expires_at) : 'never'}`;
}

/** A token's secret only ever leaves the skill in the answer to `create`. */
function withoutSecret(token: DeployToken): DeployToken {
  return token.token === undefined ? token : { ...token, token: MASK };
}

const tokenPath = (context: ActionContext<GitLabDeployTokenArguments>) => `${context.base}/deploy_tokens/${context.args.token_id}`;

/** `gitlab_deploy_token`: deploy tokens of a project or group. */
export const gitlabDeployTokenSkill = defineGitLabSkill<GitLabDeployTokenArguments>({
  name: 'gitlab_deploy_token',
  title: 'GitLab deploy tokens',
  description: 'GitLab deploy tokens (project or group). The secret is shown once, on create.',
  scope: 'project-or-group',
  parameters: {
    type: 'object',
    properties: {
      token_id: integer(),
      name: text(),
      scopes: { type: 'array', items: { type: 'string', enum: SCOPES } },
      expires_at: date,
      username: text('create: token username'),
    },
  },
  actions: {
    list: {
      result: listOf('id', 'name'),
      async run(context) {
        const tokens = (await context.list<DeployToken>(`${context.base}/deploy_tokens`, {}, 100)).map(withoutSecret);
        return reply(listText('deploy tokens', tokens, describe), tokens);
      },
    },
    get: {
      result: objectWith('id', 'name'),
      required: ['token_id'],
      async run(context) {
        const token = withoutSecret(await context.get<DeployToken>(tokenPath(context)));
        const output = detailText(`${token.name} (#${token.id})`, [
          ['Username', token.username],
          ['Scopes', token.scopes],
          ['Created', day(token.created_at)],
          ['Expires', token.expires_at ? day(token.expires_at) : 'never'],
          ['Status', token.revoked ? 'revoked' : token.expired ? 'expired' : 'active'],
        ]);
        return reply(output, token);
      },
    },
    create: {
      result: objectWith('id', 'name', 'token'),
      required: ['name', 'scopes'],
      run(context) {
        const { name, scopes, expires_at, username } = context.args;
        const body: JsonObject = { name: name as string, scopes: scopes as string[] };
        if (expires_at) body.expires_at = expires_at;
        if (username) body.username = username;
        return context.send<DeployToken>({ method: 'POST', path: `${context.base}/deploy_tokens`, body }, (token) =>
          [
            `Created deploy token #${token.id} ${token.name} (scopes: ${(token.scopes ?? []).join(', ')}).`,
            'Save the token now; it cannot be retrieved later:',
            `Username: ${token.username ?? '?'}`,
            `Token: ${token.token ?? '(not returned)'}`,
            `Registry login: docker login ${context.client.host} -u ${token.username ?? '<username>'} --password-stdin`,
          ].join('\n'),
        );
      },
    },
    delete: {
      result: NOTHING,
      required: ['token_id'],
      run: (context) =>
        context.send({ method: 'DELETE', path: tokenPath(context) }, () => `Revoked deploy token #${context.args.token_id}.`),
    },
  },
});
