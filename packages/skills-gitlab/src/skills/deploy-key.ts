import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { day, detailText, listText } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { flag, integer, text } from '../schema.js';

/** Arguments of `gitlab_deploy_key`. */
export interface GitLabDeployKeyArguments extends GitLabArguments {
  key_id?: number;
  title?: string;
  key?: string;
  can_push?: boolean;
}

interface DeployKey {
  id: number;
  title: string;
  key?: string;
  fingerprint?: string | null;
  fingerprint_sha256?: string | null;
  can_push?: boolean;
  created_at?: string;
}

/** The server's fingerprint, else the key type with the start and end of its body — never the whole key. */
function keySummary(deployKey: DeployKey): string {
  if (deployKey.fingerprint) return deployKey.fingerprint;
  if (deployKey.fingerprint_sha256) return deployKey.fingerprint_sha256;
  const [type = '', body = ''] = (deployKey.key ?? '').split(/\s+/);
  return body.length > 40 ? `${type} ${body.slice(0, 20)}...${body.slice(-10)}` : `${type} (short key)`;
}

function withoutKey(deployKey: DeployKey): DeployKey {
  const { key: _key, ...rest } = deployKey;
  return rest;
}

const access = (deployKey: DeployKey) => (deployKey.can_push ? 'read-write' : 'read-only');
const keyPath = (context: ActionContext<GitLabDeployKeyArguments>, suffix = '') =>
  `${context.base}/deploy_keys/${context.args.key_id}${suffix}`;

const DEPLOY_KEY = objectWith('id', 'title');

/** `gitlab_deploy_key`: SSH deploy keys of a project. */
export const gitlabDeployKeySkill = defineGitLabSkill<GitLabDeployKeyArguments>({
  name: 'gitlab_deploy_key',
  title: 'GitLab deploy keys',
  description: 'GitLab project deploy keys (SSH).',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      key_id: integer(),
      title: text(),
      key: text('create: SSH public key'),
      can_push: flag('Write access (default false)'),
    },
  },
  actions: {
    list: {
      result: listOf('id', 'title'),
      async run(context) {
        const keys = await context.list<DeployKey>(`${context.base}/deploy_keys`, {}, 100);
        const line = (deployKey: DeployKey) =>
          `#${deployKey.id} ${deployKey.title} (${access(deployKey)}) ${keySummary(deployKey)} ${day(deployKey.created_at)}`;
        return reply(listText('deploy keys', keys, line), keys.map(withoutKey));
      },
    },
    get: {
      result: DEPLOY_KEY,
      required: ['key_id'],
      async run(context) {
        const deployKey = await context.get<DeployKey>(keyPath(context));
        const output = detailText(`${deployKey.title} (#${deployKey.id})`, [
          ['Access', access(deployKey)],
          ['Fingerprint', keySummary(deployKey)],
          ['Created', day(deployKey.created_at)],
        ]);
        return reply(output, withoutKey(deployKey));
      },
    },
    create: {
      result: DEPLOY_KEY,
      required: ['title', 'key'],
      run(context) {
        const { title, key, can_push = false } = context.args;
        return context.send<DeployKey>(
          { method: 'POST', path: `${context.base}/deploy_keys`, body: { title: title as string, key: key as string, can_push } },
          (deployKey) => `Added deploy key #${deployKey.id} ${deployKey.title} (${access(deployKey)}).`,
        );
      },
    },
    update: {
      result: DEPLOY_KEY,
      required: ['key_id'],
      run(context) {
        const body: JsonObject = {};
        setIfPresent(body, 'title', context.args.title);
        if (context.args.can_push !== undefined) body.can_push = context.args.can_push;
        return context.send<DeployKey>(
          { method: 'PUT', path: keyPath(context), body: requireFields(body) },
          (deployKey) => `Updated deploy key #${deployKey.id} ${deployKey.title} (${access(deployKey)}).`,
        );
      },
    },
    delete: {
      result: NOTHING,
      required: ['key_id'],
      run: (context) =>
        context.send({ method: 'DELETE', path: keyPath(context) }, () => `Removed deploy key #${context.args.key_id} from the project.`),
    },
    enable: {
      result: DEPLOY_KEY,
      required: ['key_id'],
      run: (context) =>
        context.send<DeployKey>(
          { method: 'POST', path: keyPath(context, '/enable') },
          (deployKey) => `Enabled deploy key #${deployKey.id} ${deployKey.title} on this project.`,
        ),
    },
  },
});
