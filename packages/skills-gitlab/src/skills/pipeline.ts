import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, duration, listText, minute, shortSha } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { choice, DEFAULT_LIMIT, integer, JOB_SCOPES, keyValues, limit, text } from '../schema.js';
import { MASK } from '../secret-mask.js';

/** Arguments of `gitlab_pipeline`. */
export interface GitLabPipelineArguments extends GitLabArguments {
  pipeline_id?: number;
  ref?: string;
  status?: string;
  source?: string;
  scope?: string;
  variables?: Array<{ key: string; value: string }>;
  limit?: number;
}

interface Pipeline {
  id: number;
  status: string;
  ref?: string;
  sha?: string;
  source?: string;
  created_at?: string;
  started_at?: string | null;
  finished_at?: string | null;
  duration?: number | null;
  queued_duration?: number | null;
  coverage?: string | null;
  user?: { username: string } | null;
  web_url?: string;
}

interface Job {
  id: number;
  name: string;
  stage: string;
  status: string;
  duration?: number | null;
}

interface Variable {
  key: string;
  value: string;
  variable_type?: string;
}

const STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
];
const SOURCES = [
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
];

/** Variable names that usually hold secrets. */
const SECRET_NAME = /token|secret|password|key|auth/i;

const pipelinePath = (context: ActionContext<GitLabPipelineArguments>, suffix = '') =>
  `${context.base}/pipelines/${context.args.pipeline_id}${suffix}`;

function changed(verb: string) {
  return {
    required: ['pipeline_id'] as const,
    result: PIPELINE,
    run: (context: ActionContext<GitLabPipelineArguments>) =>
      context.send<Pipeline>({ method: 'POST', path: pipelinePath(context, `/${verb}`) }, (pipeline) =>
        `Pipeline #${pipeline.id}: ${verb} requested, status ${pipeline.status}.\n${pipeline.web_url ?? ''}`.trim(),
      ),
  };
}

function groupByStage(jobs: Job[]): string {
  const stages = Map.groupBy(jobs, (job) => job.stage);
  const lines = [`Found ${jobs.length} jobs:`];
  for (const [stage, members] of stages) {
    lines.push(`${stage}:`);
    for (const job of members)
      lines.push(`  [${job.status}] ${job.name} #${job.id}${typeof job.duration === 'number' ? ` ${Math.round(job.duration)}s` : ''}`);
  }
  return jobs.length === 0 ? 'No jobs found.' : lines.join('\n');
}

const PIPELINE = objectWith('id', 'status');

/** `gitlab_pipeline`: CI pipelines. */
export const gitlabPipelineSkill = defineGitLabSkill<GitLabPipelineArguments>({
  name: 'gitlab_pipeline',
  title: 'GitLab pipelines',
  description: 'GitLab CI pipelines.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      pipeline_id: integer(),
      ref: text('Branch or tag'),
      status: choice(STATUSES, 'List filter'),
      source: choice(SOURCES, 'List filter'),
      scope: choice(JOB_SCOPES, 'jobs: status filter'),
      variables: { ...(keyValues as object), description: 'create: CI variables' },
      limit,
    },
  },
  actions: {
    list: {
      result: listOf('id', 'status'),
      async run(context) {
        const { ref, status, source, limit: max } = context.args;
        const pipelines = await context.list<Pipeline>(`${context.base}/pipelines`, { ref, status, source }, max ?? DEFAULT_LIMIT);
        const line = (pipeline: Pipeline) =>
          `[${pipeline.status}] #${pipeline.id} ${pipeline.ref ?? ''} ${shortSha(pipeline.sha)} ${pipeline.source ?? ''} ${minute(pipeline.created_at)}`;
        return reply(listText('pipelines', pipelines, line), pipelines);
      },
    },
    get: {
      result: PIPELINE,
      required: ['pipeline_id'],
      async run(context) {
        const pipeline = await context.get<Pipeline>(pipelinePath(context));
        const output = detailText(`Pipeline #${pipeline.id}`, [
          ['Status', pipeline.status],
          ['Ref', pipeline.ref],
          ['SHA', shortSha(pipeline.sha, 12)],
          ['Source', pipeline.source],
          ['Created', minute(pipeline.created_at)],
          ['Started', minute(pipeline.started_at)],
          ['Finished', minute(pipeline.finished_at)],
          ['Duration', duration(pipeline.duration)],
          ['Queued', typeof pipeline.queued_duration === 'number' ? `${pipeline.queued_duration.toFixed(1)}s` : undefined],
          ['Triggered by', pipeline.user ? `@${pipeline.user.username}` : undefined],
          ['Coverage', pipeline.coverage ? `${pipeline.coverage}%` : undefined],
          ['URL', pipeline.web_url],
        ]);
        return reply(output, pipeline);
      },
    },
    create: {
      result: PIPELINE,
      required: ['ref'],
      run(context) {
        const { ref, variables } = context.args;
        const body: JsonObject = { ref: ref as string };
        if (variables?.length) body.variables = variables.map(({ key, value }) => ({ key, value }));
        return context.send<Pipeline>({ method: 'POST', path: `${context.base}/pipeline`, body }, (pipeline) =>
          `Created pipeline #${pipeline.id} on ${pipeline.ref} (${pipeline.status}).\n${pipeline.web_url ?? ''}`.trim(),
        );
      },
    },
    retry: changed('retry'),
    cancel: changed('cancel'),
    delete: {
      result: NOTHING,
      required: ['pipeline_id'],
      run: (context) =>
        context.send({ method: 'DELETE', path: pipelinePath(context) }, () => `Deleted pipeline #${context.args.pipeline_id}.`),
    },
    jobs: {
      result: listOf('id', 'name', 'status'),
      required: ['pipeline_id'],
      async run(context) {
        const jobs = await context.list<Job>(pipelinePath(context, '/jobs'), { scope: context.args.scope }, 1000);
        return reply(groupByStage(jobs), jobs);
      },
    },
    variables: {
      result: listOf('key'),
      required: ['pipeline_id'],
      async run(context) {
        const variables = (await context.list<Variable>(pipelinePath(context, '/variables'), {}, 1000)).map((variable) =>
          SECRET_NAME.test(variable.key) ? { ...variable, value: MASK } : variable,
        );
        const line = (variable: Variable) => `${variable.key}=${variable.value} (${variable.variable_type ?? 'env_var'})`;
        return reply(listText('variables', variables, line), variables);
      },
    },
  },
});
