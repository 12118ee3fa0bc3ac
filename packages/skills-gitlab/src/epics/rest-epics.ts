import type { JsonObject } from '@nexus/core';
import { GitLabApiError } from '../gitlab-api-error.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { DEFAULT_LIMIT } from '../schema.js';
import { stateFilter } from '../work-items.js';
import type { EpicBackend, EpicChild, EpicContext, EpicView, GitLabEpicArguments } from './epic-backend.js';

interface Epic {
  id: number;
  iid: number;
  title: string;
  state: string;
  description?: string | null;
  labels?: string[];
  author?: { username: string };
  start_date?: string | null;
  due_date?: string | null;
  parent_iid?: number | null;
  web_url?: string;
}

interface EpicIssue {
  id: number;
  iid: number;
  title: string;
  epic_issue_id?: number;
  references?: { full?: string };
}

const epicPath = (context: EpicContext, iid = context.args.iid, suffix = '') => `${context.base}/epics/${iid}${suffix}`;

function view(epic: Epic): EpicView {
  return {
    iid: epic.iid,
    title: epic.title,
    state: epic.state,
    description: epic.description,
    labels: epic.labels ?? [],
    author: epic.author?.username,
    startDate: epic.start_date,
    dueDate: epic.due_date,
    parent: epic.parent_iid ? `&${epic.parent_iid}` : undefined,
    webUrl: epic.web_url,
    raw: epic,
  };
}

/** Fields of a create or update body. GitLab reads fixed dates from `*_date_fixed` plus `*_date_is_fixed`. */
async function epicFields(context: EpicContext): Promise<JsonObject> {
  const { title, description, labels, parent_iid: parentIid } = context.args as GitLabEpicArguments;
  const body: JsonObject = {};
  setIfPresent(body, 'title', title);
  setIfPresent(body, 'description', description);
  if (labels?.length) body.labels = labels.join(',');
  for (const field of ['start_date', 'due_date'] as const) {
    if (!context.args[field]) continue;
    body[`${field}_fixed`] = context.args[field];
    body[`${field}_is_fixed`] = true;
  }
  // REST takes the parent's global epic id; the LLM knows its IID.
  if (parentIid) body.parent_id = (await context.get<Epic>(epicPath(context, parentIid))).id;
  return body;
}

/** The link between the epic and the issue `issue_id`, or the `epic_issue_id` given. */
async function linkId(context: EpicContext): Promise<number> {
  const { epic_issue_id: given, issue_id: issueId, iid } = context.args;
  if (given) return given;
  const issues = await context.list<EpicIssue>(epicPath(context, iid, '/issues'), {}, 1000);
  const link = issues.find((issue) => issue.id === issueId)?.epic_issue_id;
  if (!link) throw new GitLabApiError(`Issue ${issueId} is not in epic &${iid}.`, { status: 404 });
  return link;
}

/** Epics over the REST Epics API (deprecated since GitLab 17.0, to be removed in API v5). */
export const restEpics: EpicBackend = {
  api: 'REST epics API',
  async list(context) {
    const { state, labels, author, search, limit } = context.args;
    const query = {
      ...stateFilter(state),
      labels: labels?.length ? labels.join(',') : undefined,
      author_username: author ? await context.users.usernameOf(author, context.signal) : undefined,
      search,
    };
    return (await context.list<Epic>(`${context.base}/epics`, query, limit ?? DEFAULT_LIMIT)).map(view);
  },
  async get(context) {
    return view(await context.get<Epic>(epicPath(context)));
  },
  async create(context) {
    const body = await epicFields(context);
    return context.send<Epic>({ method: 'POST', path: `${context.base}/epics`, body }, (epic) =>
      `Created epic &${epic.iid}: ${epic.title}\n${epic.web_url ?? ''}`.trim(),
    );
  },
  async update(context) {
    const body = requireFields(await epicFields(context));
    return context.send<Epic>({ method: 'PUT', path: epicPath(context), body }, (epic) => `Updated epic &${epic.iid}: ${epic.title}`);
  },
  setState(context, event) {
    return context.send<Epic>(
      { method: 'PUT', path: epicPath(context), body: { state_event: event } },
      (epic) => `Epic &${epic.iid} is now ${epic.state}: ${epic.title}`,
    );
  },
  addIssue(context) {
    return context.send<{ id: number }>(
      { method: 'POST', path: epicPath(context, context.args.iid, `/issues/${context.args.issue_id}`) },
      (link) => `Added issue ${context.args.issue_id} to epic &${context.args.iid} (link id ${link.id}).`,
    );
  },
  async removeIssue(context) {
    const link = await linkId(context);
    return context.send(
      { method: 'DELETE', path: epicPath(context, context.args.iid, `/issues/${link}`) },
      () => `Removed issue ${context.args.issue_id ?? `link ${link}`} from epic &${context.args.iid}.`,
    );
  },
  async listIssues(context): Promise<EpicChild[]> {
    const issues = await context.list<EpicIssue>(epicPath(context, context.args.iid, '/issues'), {}, context.args.limit ?? DEFAULT_LIMIT);
    return issues.map((issue) => ({ id: issue.id, reference: issue.references?.full ?? `#${issue.iid}`, title: issue.title, raw: issue }));
  },
};
