import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText, minute } from '../format.js';
import { listOf, objectWith } from '../output-schema.js';
import { choice, DEFAULT_LIMIT, integer, JOB_SCOPES, keyValues, limit } from '../schema.js';

/** Arguments of `gitlab_job`. */
export interface GitLabJobArguments extends GitLabArguments {
  job_id?: number;
  scope?: string;
  tail?: number;
  variables?: Array<{ key: string; value: string }>;
  limit?: number;
}

interface Job {
  id: number;
  name: string;
  stage?: string;
  status: string;
  ref?: string;
  created_at?: string;
  started_at?: string | null;
  finished_at?: string | null;
  duration?: number | null;
  queued_duration?: number | null;
  pipeline?: { id: number } | null;
  runner?: { description?: string | null } | null;
  artifacts?: Array<{ filename?: string; file_type?: string }>;
  coverage?: number | null;
  failure_reason?: string | null;
  web_url?: string;
}

const jobPath = (context: ActionContext<GitLabJobArguments>, suffix = '') => `${context.base}/jobs/${context.args.job_id}${suffix}`;
const seconds = (value: number | null | undefined) => (typeof value === 'number' ? `${value.toFixed(1)}s` : undefined);

/**
 * The end of a job log that fits: the last `tail` lines when asked, then at most `maxBytes`
 * bytes from the end, saying what was left out.
 */
function tailLog(log: string, tail: number | undefined, maxBytes: number): { text: string; header: string } {
  const lines = log.replace(/\n$/, '').split('\n');
  const kept = tail && tail > 0 ? lines.slice(-tail) : lines;
  let text = kept.join('\n');
  const header = tail && tail > 0 ? `last ${kept.length} lines` : `${kept.length} lines`;
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    text = Buffer.from(text)
      .subarray(bytes - maxBytes)
      .toString('utf8');
    text = `… [${bytes - maxBytes} earlier bytes omitted; use tail for fewer lines]\n${text.slice(text.indexOf('\n') + 1)}`;
  }
  return { text, header };
}

function changed(verb: string, describe: (job: Job, context: ActionContext<GitLabJobArguments>) => string) {
  return {
    required: ['job_id'] as const,
    result: JOB,
    run: (context: ActionContext<GitLabJobArguments>) =>
      context.send<Job>({ method: 'POST', path: jobPath(context, `/${verb}`) }, (job) => describe(job, context)),
  };
}

const JOB = objectWith('id', 'name', 'status');

/** `gitlab_job`: CI jobs and their logs. */
export const gitlabJobSkill = defineGitLabSkill<GitLabJobArguments>({
  name: 'gitlab_job',
  title: 'GitLab CI jobs',
  description: 'GitLab CI jobs and logs.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      job_id: integer(),
      scope: choice(JOB_SCOPES, 'List filter'),
      tail: integer('log: last N lines'),
      variables: { ...(keyValues as object), description: 'play: job variables' },
      limit,
    },
  },
  actions: {
    list: {
      result: listOf('id', 'name', 'status'),
      async run(context) {
        const jobs = await context.list<Job>(`${context.base}/jobs`, { scope: context.args.scope }, context.args.limit ?? DEFAULT_LIMIT);
        const line = (job: Job) =>
          `[${job.status}] #${job.id} ${job.name} [${job.stage ?? '?'}] ${job.ref ?? ''}${typeof job.duration === 'number' ? ` ${job.duration.toFixed(1)}s` : ''}`;
        return reply(listText('jobs', jobs, line), jobs);
      },
    },
    get: {
      result: JOB,
      required: ['job_id'],
      async run(context) {
        const job = await context.get<Job>(jobPath(context));
        const output = detailText(`Job #${job.id} ${job.name}`, [
          ['Status', job.status],
          ['Stage', job.stage],
          ['Ref', job.ref],
          ['Created', minute(job.created_at)],
          ['Started', minute(job.started_at)],
          ['Finished', minute(job.finished_at)],
          ['Duration', seconds(job.duration)],
          ['Queued', seconds(job.queued_duration)],
          ['Pipeline', job.pipeline ? `#${job.pipeline.id}` : undefined],
          ['Runner', job.runner?.description],
          ['Artifacts', (job.artifacts ?? []).map((artifact) => artifact.filename ?? artifact.file_type ?? '?')],
          ['Coverage', typeof job.coverage === 'number' ? `${job.coverage}%` : undefined],
          ['Failure reason', job.failure_reason],
          ['URL', job.web_url],
        ]);
        return reply(output, job);
      },
    },
    log: {
      result: objectWith('job_id', 'log'),
      required: ['job_id'],
      async run(context) {
        const log = (await context.client.download({ path: jobPath(context, '/trace') }, context.signal)).toString('utf8');
        if (log.trim() === '')
          return reply(`Job #${context.args.job_id} has no log output.`, { job_id: context.args.job_id ?? null, log: '' });
        const { text, header } = tailLog(log, context.args.tail, context.client.settings.maxLogBytes);
        return reply(`Job #${context.args.job_id} log (${header}):\n${text}`, { job_id: context.args.job_id ?? null, log: text });
      },
    },
    retry: changed('retry', (job, context) => `Retried job #${context.args.job_id} as new job #${job.id} (${job.status}).`),
    cancel: changed('cancel', (job) => `Job #${job.id} ${job.name}: ${job.status}.`),
    play: {
      result: JOB,
      required: ['job_id'],
      run(context) {
        const { variables } = context.args;
        const body: JsonObject | undefined = variables?.length
          ? { job_variables_attributes: variables.map(({ key, value }) => ({ key, value })) }
          : undefined;
        return context.send<Job>(
          { method: 'POST', path: jobPath(context, '/play'), ...(body ? { body } : {}) },
          (job) => `Started job #${job.id} ${job.name} (${job.status}).`,
        );
      },
    },
    erase: changed('erase', (job) => `Erased the log and artifacts of job #${job.id} ${job.name}.`),
  },
});
