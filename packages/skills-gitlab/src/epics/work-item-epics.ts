import { InvalidParametersError, type JsonObject } from '@nexus/core';
import { GitLabApiError } from '../gitlab-api-error.js';
import { globalId, numericId } from '../graphql-ids.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { DEFAULT_LIMIT } from '../schema.js';
import type { EpicBackend, EpicChild, EpicContext, EpicView } from './epic-backend.js';

// Epics as GraphQL work items of type EPIC (doc/api/graphql/epic_work_items_api_migration_guide.md).

interface Widget {
  type?: string;
  description?: string | null;
  labels?: { nodes: Array<{ id: string; title: string }> };
  startDate?: string | null;
  dueDate?: string | null;
  parent?: { iid: string; title: string } | null;
  children?: { nodes: WorkItemChild[] };
}

interface WorkItem {
  id: string;
  iid: string;
  title: string;
  state: string;
  webUrl?: string | null;
  author?: { username: string } | null;
  widgets?: Widget[];
}

interface WorkItemChild {
  id: string;
  iid: string;
  title: string;
  state: string;
  reference: string;
}

const EPIC_FIELDS = `id iid title state webUrl author { username } widgets { type
  ... on WorkItemWidgetDescription { description }
  ... on WorkItemWidgetLabels { labels { nodes { id title } } }
  ... on WorkItemWidgetStartAndDueDate { startDate dueDate }
  ... on WorkItemWidgetHierarchy { parent { iid title } } }`;
const LIST = `query($fullPath: ID!, $state: IssuableState, $search: String, $labelName: [String!], $authorUsername: String, $first: Int) {
  group(fullPath: $fullPath) { workItems(types: [EPIC], state: $state, search: $search, labelName: $labelName, authorUsername: $authorUsername, first: $first) { nodes { ${EPIC_FIELDS} } } } }`;
const GET = `query($fullPath: ID!, $iid: String!) { namespace(fullPath: $fullPath) { workItem(iid: $iid) { ${EPIC_FIELDS} } } }`;
const CHILDREN = `query($fullPath: ID!, $iid: String!, $first: Int) { namespace(fullPath: $fullPath) { workItem(iid: $iid) { id widgets {
  ... on WorkItemWidgetHierarchy { children(first: $first) { nodes { id iid title state reference(full: true) } } } } } } }`;
const EPIC_TYPE = 'query($fullPath: ID!) { namespace(fullPath: $fullPath) { workItemTypes(name: EPIC) { nodes { id } } } }';
const LABELS = `query($fullPath: ID!, $searchTerm: String) { group(fullPath: $fullPath) {
  labels(searchTerm: $searchTerm, includeAncestorGroups: true, first: 100) { nodes { id title } } } }`;
const CREATE = `mutation($input: WorkItemCreateInput!) { workItemCreate(input: $input) { workItem { ${EPIC_FIELDS} } errors } }`;
const UPDATE = `mutation($input: WorkItemUpdateInput!) { workItemUpdate(input: $input) { workItem { ${EPIC_FIELDS} } errors } }`;
const UPDATE_CHILD = 'mutation($input: WorkItemUpdateInput!) { workItemUpdate(input: $input) { workItem { id iid title } errors } }';

const STATES: Record<string, string> = { OPEN: 'opened', CLOSED: 'closed' };
const groupPath = (context: EpicContext) => (context.args.group ?? '').trim();
const widget = (item: WorkItem, key: keyof Widget) => item.widgets?.find((candidate) => candidate[key] !== undefined);

function view(item: WorkItem): EpicView {
  const dates = widget(item, 'startDate');
  const parent = widget(item, 'parent')?.parent;
  return {
    iid: Number(item.iid),
    title: item.title,
    state: STATES[item.state] ?? item.state.toLowerCase(),
    description: widget(item, 'description')?.description,
    labels: (widget(item, 'labels')?.labels?.nodes ?? []).map((label) => label.title),
    author: item.author?.username,
    startDate: dates?.startDate,
    dueDate: dates?.dueDate,
    parent: parent ? `&${parent.iid}` : undefined,
    webUrl: item.webUrl ?? undefined,
    raw: item,
  };
}

async function epicAt(context: EpicContext, iid: number): Promise<WorkItem> {
  const { namespace } = await context.query<{ namespace: { workItem: WorkItem | null } | null }>(GET, {
    fullPath: groupPath(context),
    iid: String(iid),
  });
  if (!namespace?.workItem) throw new GitLabApiError(`Epic &${iid} not found in group ${groupPath(context)}.`, { status: 404 });
  return namespace.workItem;
}

/** Label global ids by title (exact match), for the labels widget. */
async function labelIds(context: EpicContext, titles: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of titles) {
    const { group } = await context.query<{ group: { labels: { nodes: Array<{ id: string; title: string }> } } | null }>(LABELS, {
      fullPath: groupPath(context),
      searchTerm: title,
    });
    const label = group?.labels.nodes.find((candidate) => candidate.title === title);
    if (!label) throw new GitLabApiError(`Label '${title}' not found in group ${groupPath(context)}.`, { status: 404 });
    ids.push(label.id);
  }
  return ids;
}

/** The widgets a create or update sets: description, dates and, when asked, the parent epic. */
async function widgetFields(context: EpicContext): Promise<JsonObject> {
  const { description, start_date: startDate, due_date: dueDate, parent_iid: parentIid } = context.args;
  const input: JsonObject = {};
  if (description) input.descriptionWidget = { description };
  if (startDate || dueDate) {
    const dates: JsonObject = { isFixed: true };
    setIfPresent(dates, 'startDate', startDate);
    setIfPresent(dates, 'dueDate', dueDate);
    input.startAndDueDateWidget = dates;
  }
  if (parentIid) input.hierarchyWidget = { parentId: (await epicAt(context, parentIid)).id };
  return input;
}

function changed(item: WorkItem, verb: string): string {
  const epic = view(item);
  return `${verb} epic &${epic.iid}: ${epic.title} (${epic.state})\n${epic.webUrl ?? ''}`.trim();
}

/** Epics as GraphQL work items (GitLab 17.7 and later; generally available from 18.1). */
export const workItemEpics: EpicBackend = {
  api: 'GraphQL work items',
  async list(context) {
    const { state = 'opened', labels, author, search, limit } = context.args;
    const { group } = await context.query<{ group: { workItems: { nodes: WorkItem[] } } | null }>(LIST, {
      fullPath: groupPath(context),
      state,
      search: search ?? null,
      labelName: labels?.length ? labels : null,
      authorUsername: author ? await context.users.usernameOf(author, context.signal) : null,
      first: Math.min(limit ?? DEFAULT_LIMIT, 100),
    });
    if (!group) throw new GitLabApiError(`Group ${groupPath(context)} not found.`, { status: 404 });
    return group.workItems.nodes.map(view);
  },
  async get(context) {
    return view(await epicAt(context, context.args.iid as number));
  },
  async create(context) {
    const { namespace } = await context.query<{ namespace: { workItemTypes: { nodes: Array<{ id: string }> } } | null }>(EPIC_TYPE, {
      fullPath: groupPath(context),
    });
    const type = namespace?.workItemTypes.nodes[0]?.id;
    if (!type) throw new GitLabApiError(`Group ${groupPath(context)} has no epic work item type.`, { status: 404 });
    const input: JsonObject = {
      namespacePath: groupPath(context),
      title: context.args.title as string,
      workItemTypeId: type,
      ...(await widgetFields(context)),
    };
    if (context.args.labels?.length) input.labelsWidget = { labelIds: await labelIds(context, context.args.labels) };
    return context.mutate<{ workItem: WorkItem }>(CREATE, { input }, 'workItemCreate', ({ workItem }) => changed(workItem, 'Created'));
  },
  async update(context) {
    const epic = await epicAt(context, context.args.iid as number);
    const fields: JsonObject = await widgetFields(context);
    setIfPresent(fields, 'title', context.args.title);
    const { labels } = context.args;
    if (labels?.length) {
      // REST replaces an epic's labels; the widget adds and removes, so the difference is sent.
      const wanted = await labelIds(context, labels);
      const current = (widget(epic, 'labels')?.labels?.nodes ?? []).map((label) => label.id);
      fields.labelsWidget = {
        addLabelIds: wanted.filter((id) => !current.includes(id)),
        removeLabelIds: current.filter((id) => !wanted.includes(id)),
      };
    }
    return context.mutate<{ workItem: WorkItem }>(
      UPDATE,
      { input: { id: epic.id, ...requireFields(fields) } },
      'workItemUpdate',
      ({ workItem }) => changed(workItem, 'Updated'),
    );
  },
  async setState(context, event) {
    const epic = await epicAt(context, context.args.iid as number);
    return context.mutate<{ workItem: WorkItem }>(
      UPDATE,
      { input: { id: epic.id, stateEvent: event === 'close' ? 'CLOSE' : 'REOPEN' } },
      'workItemUpdate',
      ({ workItem }) => `Epic &${workItem.iid} is now ${view(workItem).state}: ${workItem.title}`,
    );
  },
  async addIssue(context) {
    const epic = await epicAt(context, context.args.iid as number);
    // A work item's id is the issue's global id.
    return context.mutate(
      UPDATE_CHILD,
      { input: { id: epic.id, hierarchyWidget: { childrenIds: [globalId('WorkItem', context.args.issue_id as number)] } } },
      'workItemUpdate',
      () => `Added issue ${context.args.issue_id} to epic &${context.args.iid}.`,
    );
  },
  async removeIssue(context) {
    if (!context.args.issue_id) {
      throw new InvalidParametersError('issue_id parameter required for remove-issue action (work items have no link ids).', {
        parameter: 'issue_id',
      });
    }
    return context.mutate(
      UPDATE_CHILD,
      { input: { id: globalId('WorkItem', context.args.issue_id), hierarchyWidget: { parentId: null } } },
      'workItemUpdate',
      () => `Removed issue ${context.args.issue_id} from epic &${context.args.iid}.`,
    );
  },
  async listIssues(context): Promise<EpicChild[]> {
    const { namespace } = await context.query<{ namespace: { workItem: WorkItem | null } | null }>(CHILDREN, {
      fullPath: groupPath(context),
      iid: String(context.args.iid),
      first: Math.min(context.args.limit ?? DEFAULT_LIMIT, 100),
    });
    if (!namespace?.workItem)
      throw new GitLabApiError(`Epic &${context.args.iid} not found in group ${groupPath(context)}.`, { status: 404 });
    const children = widget(namespace.workItem, 'children')?.children?.nodes ?? [];
    return children.map((child) => ({ id: numericId(child.id), reference: child.reference, title: child.title, raw: child }));
  },
};
