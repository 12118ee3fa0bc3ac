import type { JsonObject } from '@nexus/core';
import { detailText, listText } from '../format.js';
import { defineGitLabSkill, type GitLabArguments, reply } from '../gitlab-skill.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, date, flag, integer, text } from '../schema.js';

/** Arguments of `gitlab_iteration`. */
interface GitLabIterationArguments extends GitLabArguments {
  iteration_id?: number;
  title?: string;
  description?: string;
  start_date?: string;
  due_date?: string;
  state?: string;
  search?: string;
  include_ancestors?: boolean;
  duration_in_weeks?: number;
  iterations_in_advance?: number;
  automatic?: boolean;
}

interface Iteration {
  id: number;
  title?: string | null;
  description?: string | null;
  state: number | string;
  start_date?: string;
  due_date?: string;
  web_url?: string;
}

interface Cadence {
  id: number;
  title: string;
  duration_in_weeks?: number;
  automatic?: boolean;
}

/** GitLab's REST API gives the state as 1 (upcoming), 2 (current) or 3 (closed); GraphQL as words. */
const STATES: Record<string, string> = { 1: 'upcoming', 2: 'current', 3: 'closed' };
const MARKS: Record<string, string> = { upcoming: '[>]', current: '[*]', closed: '[x]' };

function stateName(state: number | string): string {
  return STATES[String(state)] ?? String(state);
}

/** `gitlab_iteration`: group iterations and iteration cadences (GitLab Premium). */
export const gitlabIterationSkill = defineGitLabSkill<GitLabIterationArguments>({
  name: 'gitlab_iteration',
  summary: 'GitLab group iterations and cadences (Premium).',
  scope: 'group',
  required: ['group'],
  properties: {
    iteration_id: integer(),
    title: text(),
    description: text(),
    start_date: date,
    due_date: date,
    state: choice(['upcoming', 'current', 'closed', 'all'], 'List filter'),
    search: text(),
    include_ancestors: flag('list: include parent groups'),
    duration_in_weeks: integer(),
    iterations_in_advance: integer(),
    automatic: flag('create-cadence: schedule iterations automatically'),
  },
  actions: {
    list: {
      async run(context) {
        const { state, search, include_ancestors } = context.args;
        const iterations = await context.list<Iteration>(
          `${context.base}/iterations`,
          { state, search, include_ancestors: include_ancestors || undefined },
          100,
        );
        const line = (iteration: Iteration) =>
          `${MARKS[stateName(iteration.state)] ?? '[?]'} #${iteration.id} ${iteration.title ?? '(untitled)'} (${iteration.start_date ?? '?'} → ${iteration.due_date ?? '?'})`;
        return reply(listText('iterations', iterations, line), iterations);
      },
    },
    get: {
      required: ['iteration_id'],
      async run(context) {
        const iteration = await context.get<Iteration>(`${context.base}/iterations/${context.args.iteration_id}`);
        const output = detailText(
          `#${iteration.id} ${iteration.title ?? '(untitled)'}`,
          [
            ['State', stateName(iteration.state)],
            ['Start', iteration.start_date],
            ['Due', iteration.due_date],
            ['URL', iteration.web_url],
          ],
          iteration.description || '(no description)',
        );
        return reply(output, iteration);
      },
    },
    create: {
      required: ['title', 'start_date', 'due_date'],
      run(context) {
        const { title, start_date, due_date, description } = context.args;
        const body: JsonObject = { title: title as string, start_date: start_date as string, due_date: due_date as string };
        setIfPresent(body, 'description', description);
        return context.send<Iteration>(
          { method: 'POST', path: `${context.base}/iterations`, body },
          (iteration) => `Created iteration #${iteration.id}: ${iteration.title ?? title}.`,
        );
      },
    },
    update: {
      required: ['iteration_id'],
      run(context) {
        const body: JsonObject = {};
        setIfPresent(body, 'title', context.args.title);
        setIfPresent(body, 'description', context.args.description);
        return context.send<Iteration>(
          { method: 'PUT', path: `${context.base}/iterations/${context.args.iteration_id}`, body: requireFields(body) },
          (iteration) => `Updated iteration #${iteration.id}.`,
        );
      },
    },
    delete: {
      required: ['iteration_id'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: `${context.base}/iterations/${context.args.iteration_id}` },
          () => `Deleted iteration #${context.args.iteration_id}.`,
        ),
    },
    'list-cadences': {
      async run(context) {
        const cadences = await context.list<Cadence>(`${context.base}/iterations/cadences`, {}, 100);
        const line = (cadence: Cadence) =>
          `#${cadence.id} ${cadence.title} (${cadence.duration_in_weeks ?? '?'} weeks, ${cadence.automatic ? 'automatic' : 'manual'})`;
        return reply(listText('cadences', cadences, line), cadences);
      },
    },
    'create-cadence': {
      required: ['title', 'start_date', 'duration_in_weeks'],
      run(context) {
        const { title, start_date, duration_in_weeks, iterations_in_advance, automatic } = context.args;
        const body: JsonObject = {
          title: title as string,
          start_date: start_date as string,
          duration_in_weeks: duration_in_weeks as number,
        };
        setIfPresent(body, 'iterations_in_advance', iterations_in_advance);
        if (automatic !== undefined) body.automatic = automatic;
        return context.send<Cadence>(
          { method: 'POST', path: `${context.base}/iterations/cadences`, body },
          (cadence) => `Created cadence #${cadence.id}: ${cadence.title}.`,
        );
      },
    },
  },
});
