import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText } from '../format.js';
import { GitLabApiError } from '../gitlab-api-error.js';
import { globalId, numericId } from '../graphql-ids.js';
import { listOf, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, date, flag, integer, text } from '../schema.js';

/** Arguments of `gitlab_iteration`. */
export interface GitLabIterationArguments extends GitLabArguments {
  iteration_id?: number;
  cadence_id?: number;
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

/** An iteration as REST lists it (numeric `state`) or GraphQL returns it (global `id`, `state` in words). */
interface Iteration {
  id: number | string;
  title?: string | null;
  description?: string | null;
  state: number | string;
  start_date?: string;
  due_date?: string;
  startDate?: string;
  dueDate?: string;
  web_url?: string;
  webUrl?: string;
  iterationCadence?: { id: string; title: string } | null;
}

interface Cadence {
  id: string;
  title: string;
  durationInWeeks?: number | null;
  iterationsInAdvance?: number | null;
  automatic?: boolean | null;
  active?: boolean | null;
  startDate?: string | null;
}

/** GitLab's REST API gives the state as 1 (upcoming), 2 (current) or 3 (closed); GraphQL as words. */
const STATES: Record<string, string> = { 1: 'upcoming', 2: 'current', 3: 'closed' };
const MARKS: Record<string, string> = { upcoming: '[>]', current: '[*]', closed: '[x]' };

// REST documents only the list (group_iterations.md); reading one, writing, and cadences are GraphQL-only.
const ITERATION_FIELDS = 'id title description state startDate dueDate webUrl iterationCadence { id title }';
const CADENCE_FIELDS = 'id title durationInWeeks iterationsInAdvance automatic active startDate';
const GET_ITERATION = `query($id: IterationID!) { iteration(id: $id) { ${ITERATION_FIELDS} } }`;
const LIST_CADENCES = `query($fullPath: ID!) { group(fullPath: $fullPath) { iterationCadences(first: 100) { nodes { ${CADENCE_FIELDS} } } } }`;
const CREATE_ITERATION = `mutation($input: iterationCreateInput!) { iterationCreate(input: $input) { iteration { ${ITERATION_FIELDS} } errors } }`;
const UPDATE_ITERATION = `mutation($input: UpdateIterationInput!) { updateIteration(input: $input) { iteration { ${ITERATION_FIELDS} } errors } }`;
const DELETE_ITERATION = 'mutation($input: IterationDeleteInput!) { iterationDelete(input: $input) { errors } }';
const CREATE_CADENCE = `mutation($input: IterationCadenceCreateInput!) { iterationCadenceCreate(input: $input) { iterationCadence { ${CADENCE_FIELDS} } errors } }`;

function stateName(state: number | string): string {
  return STATES[String(state)] ?? String(state);
}

const iterationNumber = (iteration: Iteration) => (typeof iteration.id === 'number' ? iteration.id : numericId(iteration.id));
const groupPath = (context: ActionContext<GitLabIterationArguments>) => (context.args.group ?? '').trim();
const iterationGid = (context: ActionContext<GitLabIterationArguments>) => globalId('Iteration', context.args.iteration_id as number);

/** The fields an iteration create or update sets, in GraphQL's names. */
function iterationFields(args: GitLabIterationArguments): JsonObject {
  const fields: JsonObject = {};
  setIfPresent(fields, 'title', args.title);
  setIfPresent(fields, 'description', args.description);
  setIfPresent(fields, 'startDate', args.start_date);
  setIfPresent(fields, 'dueDate', args.due_date);
  return fields;
}

/** `gitlab_iteration`: group iterations and iteration cadences (GitLab Premium; GraphQL except the list). */
export const gitlabIterationSkill = defineGitLabSkill<GitLabIterationArguments>({
  name: 'gitlab_iteration',
  title: 'GitLab iterations',
  description: 'GitLab group iterations and cadences (Premium; group = full path).',
  scope: 'group',
  parameters: {
    type: 'object',
    properties: {
      iteration_id: integer(),
      cadence_id: integer('create: cadence to add the iteration to'),
      title: text(),
      description: text(),
      start_date: date,
      due_date: date,
      state: choice(['upcoming', 'current', 'closed', 'all'], 'List filter'),
      search: text(),
      include_ancestors: flag('list: include parent groups'),
      duration_in_weeks: integer(),
      iterations_in_advance: integer(),
      automatic: flag('create-cadence: schedule iterations automatically (default false)'),
    },
    required: ['group'],
  },
  actions: {
    list: {
      result: listOf('id', 'title'),
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
      result: objectWith('id', 'title'),
      required: ['iteration_id'],
      async run(context) {
        const { iteration } = await context.query<{ iteration: Iteration | null }>(GET_ITERATION, { id: iterationGid(context) });
        if (!iteration) throw new GitLabApiError(`Iteration ${context.args.iteration_id} not found.`, { status: 404 });
        const output = detailText(
          `#${iterationNumber(iteration)} ${iteration.title ?? '(untitled)'}`,
          [
            ['State', stateName(iteration.state)],
            ['Start', iteration.startDate],
            ['Due', iteration.dueDate],
            [
              'Cadence',
              iteration.iterationCadence ? `#${numericId(iteration.iterationCadence.id)} ${iteration.iterationCadence.title}` : undefined,
            ],
            ['URL', iteration.webUrl],
          ],
          iteration.description || '(no description)',
        );
        return reply(output, iteration);
      },
    },
    create: {
      result: objectWith('iteration'),
      required: ['title', 'start_date', 'due_date'],
      run(context) {
        const input: JsonObject = { groupPath: groupPath(context), ...iterationFields(context.args) };
        if (context.args.cadence_id) input.iterationsCadenceId = globalId('Iterations::Cadence', context.args.cadence_id);
        return context.mutate<{ iteration: Iteration }>(
          CREATE_ITERATION,
          { input },
          'iterationCreate',
          ({ iteration }) => `Created iteration #${iterationNumber(iteration)}: ${iteration.title ?? context.args.title}.`,
        );
      },
    },
    update: {
      result: objectWith('iteration'),
      required: ['iteration_id'],
      run: (context) =>
        context.mutate<{ iteration: Iteration }>(
          UPDATE_ITERATION,
          { input: { groupPath: groupPath(context), id: iterationGid(context), ...requireFields(iterationFields(context.args)) } },
          'updateIteration',
          ({ iteration }) => `Updated iteration #${iterationNumber(iteration)}.`,
        ),
    },
    delete: {
      result: objectWith(),
      required: ['iteration_id'],
      run: (context) =>
        context.mutate(
          DELETE_ITERATION,
          { input: { id: iterationGid(context) } },
          'iterationDelete',
          () => `Deleted iteration #${context.args.iteration_id}.`,
        ),
    },
    'list-cadences': {
      result: listOf('id', 'title'),
      async run(context) {
        const { group } = await context.query<{ group: { iterationCadences: { nodes: Cadence[] } } | null }>(LIST_CADENCES, {
          fullPath: groupPath(context),
        });
        if (!group) throw new GitLabApiError(`Group ${groupPath(context)} not found.`, { status: 404 });
        const cadences = group.iterationCadences.nodes;
        const line = (cadence: Cadence) =>
          `#${numericId(cadence.id)} ${cadence.title} (${cadence.durationInWeeks ?? '?'} weeks, ${cadence.automatic ? 'automatic' : 'manual'})`;
        return reply(listText('cadences', cadences, line), cadences);
      },
    },
    'create-cadence': {
      result: objectWith('iterationCadence'),
      required: ['title', 'start_date', 'duration_in_weeks'],
      run(context) {
        const { title, start_date, duration_in_weeks, iterations_in_advance, automatic = false } = context.args;
        const input: JsonObject = {
          groupPath: groupPath(context),
          title: title as string,
          startDate: start_date as string,
          durationInWeeks: duration_in_weeks as number,
          automatic,
          active: true,
        };
        setIfPresent(input, 'iterationsInAdvance', iterations_in_advance);
        return context.mutate<{ iterationCadence: Cadence }>(
          CREATE_CADENCE,
          { input },
          'iterationCadenceCreate',
          ({ iterationCadence }) => `Created cadence #${numericId(iterationCadence.id)}: ${iterationCadence.title}.`,
        );
      },
    },
  },
});
