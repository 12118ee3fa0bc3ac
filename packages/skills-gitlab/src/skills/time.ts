import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText } from '../format.js';
import { objectWith } from '../output-schema.js';
import { choice, integer, text } from '../schema.js';

/** Arguments of `gitlab_time`. */
export interface GitLabTimeArguments extends GitLabArguments {
  target_type: 'issue' | 'mr';
  iid: number;
  duration?: string;
  summary?: string;
}

interface TimeStats {
  time_estimate?: number;
  total_time_spent?: number;
  human_time_estimate?: string | null;
  human_total_time_spent?: string | null;
}

const target = (context: ActionContext<GitLabTimeArguments>) =>
  context.args.target_type === 'mr'
    ? { path: `${context.base}/merge_requests/${context.args.iid}`, name: `MR !${context.args.iid}` }
    : { path: `${context.base}/issues/${context.args.iid}`, name: `issue #${context.args.iid}` };

function post(
  context: ActionContext<GitLabTimeArguments>,
  suffix: string,
  body: Record<string, string> | undefined,
  render: (stats: TimeStats, name: string) => string,
) {
  const { path, name } = target(context);
  return context.send<TimeStats>({ method: 'POST', path: `${path}/${suffix}`, ...(body ? { body } : {}) }, (stats) => render(stats, name));
}

const TIME_STATS = objectWith('time_estimate', 'total_time_spent');

/** `gitlab_time`: time tracking on an issue or merge request. */
export const gitlabTimeSkill = defineGitLabSkill<GitLabTimeArguments>({
  name: 'gitlab_time',
  title: 'GitLab time tracking',
  description: 'GitLab time tracking on an issue or MR. Durations like 1h30m, 2d, 1w 2d.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      target_type: choice(['issue', 'mr']),
      iid: integer(),
      duration: text(),
      summary: text('spend: what the time was for'),
    },
    required: ['target_type', 'iid'],
  },
  actions: {
    estimate: {
      result: TIME_STATS,
      required: ['duration'],
      run: (context) =>
        post(
          context,
          'time_estimate',
          { duration: context.args.duration as string },
          (stats, name) => `Estimate of ${name} set to ${stats.human_time_estimate ?? context.args.duration}.`,
        ),
    },
    'reset-estimate': {
      result: TIME_STATS,
      run: (context) => post(context, 'reset_time_estimate', undefined, (_stats, name) => `Estimate of ${name} removed.`),
    },
    spend: {
      result: TIME_STATS,
      required: ['duration'],
      run(context) {
        const { duration, summary } = context.args;
        return post(
          context,
          'add_spent_time',
          { duration: duration as string, ...(summary ? { summary } : {}) },
          (stats, name) => `Added ${duration} to ${name}; total spent ${stats.human_total_time_spent ?? '?'}.`,
        );
      },
    },
    'reset-spent': {
      result: TIME_STATS,
      run: (context) => post(context, 'reset_spent_time', undefined, (_stats, name) => `Spent time of ${name} reset.`),
    },
    stats: {
      result: TIME_STATS,
      async run(context) {
        const { path, name } = target(context);
        const stats = await context.get<TimeStats>(`${path}/time_stats`);
        const output = detailText(`Time tracking of ${name}`, [
          ['Estimate', stats.human_time_estimate || 'Not set'],
          ['Spent', stats.human_total_time_spent || 'None'],
          ['Estimate (s)', stats.time_estimate ?? 0],
          ['Spent (s)', stats.total_time_spent ?? 0],
        ]);
        return reply(output, stats);
      },
    },
  },
});
