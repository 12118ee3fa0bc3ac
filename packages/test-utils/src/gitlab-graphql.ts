// The stand-in's GraphQL endpoint: a subset of GitLab's schema, with GitLab's type, field, argument
// and input names (doc/api/graphql/reference), run by graphql-js so that a query naming a field,
// argument or input field GitLab does not have fails the way GitLab fails it.
import { buildSchema, graphql, Kind, parse } from 'graphql';

const SCHEMA = buildSchema(/* GraphQL */ `
  scalar Time
  scalar Date
  scalar IterationID
  scalar IterationsCadenceID
  scalar WorkItemID
  scalar WorkItemsTypeID
  scalar LabelID

  type Query {
    metadata: Metadata
    group(fullPath: ID!): Group
    namespace(fullPath: ID!): Namespace
    iteration(id: IterationID!): Iteration
  }

  type Metadata {
    version: String!
    revision: String!
    enterprise: Boolean!
  }

  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }

  type Group {
    id: ID!
    fullPath: ID!
    iterationCadences(
      id: IterationsCadenceID
      title: String
      durationInWeeks: Int
      automatic: Boolean
      active: Boolean
      includeAncestorGroups: Boolean
      first: Int
      after: String
    ): IterationCadenceConnection
    workItems(
      types: [IssueType!]
      state: IssuableState
      search: String
      labelName: [String!]
      authorUsername: String
      iid: String
      includeDescendants: Boolean
      first: Int
      after: String
    ): WorkItemConnection
    labels(searchTerm: String, title: String, includeAncestorGroups: Boolean, onlyGroupLabels: Boolean, first: Int, after: String): LabelConnection
  }

  type Namespace {
    id: ID!
    fullPath: ID!
    workItem(iid: String!): WorkItem
    workItemTypes(name: IssueType): WorkItemTypeConnection
  }

  enum IssuableState {
    opened
    closed
    locked
    all
  }

  enum IssueType {
    ISSUE
    INCIDENT
    TEST_CASE
    REQUIREMENT
    TASK
    TICKET
    OBJECTIVE
    KEY_RESULT
    EPIC
  }

  enum IterationState {
    upcoming
    started
    current
    opened
    closed
    all
  }

  type Iteration {
    id: ID!
    iid: ID
    sequence: Int!
    title: String
    description: String
    state: IterationState!
    startDate: Time
    dueDate: Time
    webUrl: String!
    iterationCadence: IterationCadence!
  }

  type IterationCadence {
    id: IterationsCadenceID!
    title: String!
    description: String
    durationInWeeks: Int
    iterationsInAdvance: Int
    startDate: Time
    automatic: Boolean
    active: Boolean
    rollOver: Boolean!
  }

  type IterationCadenceConnection {
    nodes: [IterationCadence]
    pageInfo: PageInfo!
  }

  type Label {
    id: LabelID!
    title: String!
    color: String!
    description: String
  }

  type LabelConnection {
    nodes: [Label]
    pageInfo: PageInfo!
  }

  type UserCore {
    id: ID!
    username: String!
    name: String!
    webUrl: String!
  }

  type WorkItemType {
    id: WorkItemsTypeID!
    name: String!
  }

  type WorkItemTypeConnection {
    nodes: [WorkItemType]
  }

  enum WorkItemState {
    OPEN
    CLOSED
  }

  enum WorkItemStateEvent {
    CLOSE
    REOPEN
  }

  enum WorkItemWidgetType {
    ASSIGNEES
    DESCRIPTION
    HIERARCHY
    LABELS
    START_AND_DUE_DATE
  }

  type WorkItem {
    id: WorkItemID!
    iid: String!
    title: String!
    state: WorkItemState!
    confidential: Boolean!
    webUrl: String
    createdAt: Time!
    updatedAt: Time!
    author: UserCore
    reference(full: Boolean): String!
    workItemType: WorkItemType!
    widgets: [WorkItemWidget!]
  }

  type WorkItemConnection {
    nodes: [WorkItem]
    pageInfo: PageInfo!
  }

  interface WorkItemWidget {
    type: WorkItemWidgetType
  }

  type WorkItemWidgetDescription implements WorkItemWidget {
    type: WorkItemWidgetType
    description: String
  }

  type WorkItemWidgetLabels implements WorkItemWidget {
    type: WorkItemWidgetType
    labels: LabelConnection
  }

  type WorkItemWidgetStartAndDueDate implements WorkItemWidget {
    type: WorkItemWidgetType
    startDate: Date
    dueDate: Date
    isFixed: Boolean!
  }

  type WorkItemWidgetHierarchy implements WorkItemWidget {
    type: WorkItemWidgetType
    parent: WorkItem
    hasChildren: Boolean!
    children(first: Int, after: String): WorkItemConnection
  }

  type Mutation {
    iterationCreate(input: iterationCreateInput!): iterationCreatePayload
    updateIteration(input: UpdateIterationInput!): UpdateIterationPayload
    iterationDelete(input: IterationDeleteInput!): IterationDeletePayload
    iterationCadenceCreate(input: IterationCadenceCreateInput!): IterationCadenceCreatePayload
    workItemCreate(input: WorkItemCreateInput!): WorkItemCreatePayload
    workItemUpdate(input: WorkItemUpdateInput!): WorkItemUpdatePayload
  }

  input iterationCreateInput {
    clientMutationId: String
    projectPath: ID
    groupPath: ID
    iterationsCadenceId: IterationsCadenceID
    title: String
    description: String
    startDate: String
    dueDate: String
  }

  type iterationCreatePayload {
    clientMutationId: String
    errors: [String!]!
    iteration: Iteration
  }

  input UpdateIterationInput {
    clientMutationId: String
    groupPath: ID!
    id: ID!
    title: String
    description: String
    startDate: String
    dueDate: String
  }

  type UpdateIterationPayload {
    clientMutationId: String
    errors: [String!]!
    iteration: Iteration
  }

  input IterationDeleteInput {
    clientMutationId: String
    id: IterationID!
  }

  type IterationDeletePayload {
    clientMutationId: String
    errors: [String!]!
    group: Group
  }

  input IterationCadenceCreateInput {
    clientMutationId: String
    groupPath: ID!
    title: String
    durationInWeeks: Int
    iterationsInAdvance: Int
    startDate: String
    automatic: Boolean!
    active: Boolean!
    rollOver: Boolean
    description: String
  }

  type IterationCadenceCreatePayload {
    clientMutationId: String
    errors: [String!]!
    iterationCadence: IterationCadence
  }

  input WorkItemWidgetDescriptionInput {
    description: String!
  }

  input WorkItemWidgetLabelsCreateInput {
    labelIds: [LabelID!]!
  }

  input WorkItemWidgetLabelsUpdateInput {
    addLabelIds: [LabelID!]
    removeLabelIds: [LabelID!]
  }

  input WorkItemWidgetStartAndDueDateUpdateInput {
    startDate: Date
    dueDate: Date
    isFixed: Boolean
  }

  input WorkItemWidgetHierarchyCreateInput {
    parentId: WorkItemID
  }

  input WorkItemWidgetHierarchyUpdateInput {
    parentId: WorkItemID
    childrenIds: [WorkItemID!]
    adjacentWorkItemId: WorkItemID
    relativePosition: String
  }

  input WorkItemCreateInput {
    clientMutationId: String
    namespacePath: ID
    title: String!
    workItemTypeId: WorkItemsTypeID!
    confidential: Boolean
    descriptionWidget: WorkItemWidgetDescriptionInput
    labelsWidget: WorkItemWidgetLabelsCreateInput
    startAndDueDateWidget: WorkItemWidgetStartAndDueDateUpdateInput
    hierarchyWidget: WorkItemWidgetHierarchyCreateInput
  }

  type WorkItemCreatePayload {
    clientMutationId: String
    errors: [String!]!
    workItem: WorkItem
  }

  input WorkItemUpdateInput {
    clientMutationId: String
    id: WorkItemID!
    title: String
    confidential: Boolean
    stateEvent: WorkItemStateEvent
    descriptionWidget: WorkItemWidgetDescriptionInput
    labelsWidget: WorkItemWidgetLabelsUpdateInput
    startAndDueDateWidget: WorkItemWidgetStartAndDueDateUpdateInput
    hierarchyWidget: WorkItemWidgetHierarchyUpdateInput
  }

  type WorkItemUpdatePayload {
    clientMutationId: String
    errors: [String!]!
    workItem: WorkItem
  }
`);

/** What a GraphQL request asked for, as the stand-in records it. */
export interface GraphQLCall {
  operation: 'query' | 'mutation' | 'subscription';
  /** Top-level fields, e.g. `['workItemCreate']`. */
  fields: string[];
  variables: Record<string, unknown>;
}

const WEB = 'https://gitlab.example.com';
const CREATED = '2024-05-01T09:30:00Z';
const EPIC_TYPE = { id: 'gid://gitlab/WorkItems::Type/8', name: 'Epic' };
const ISSUE_TYPE = { id: 'gid://gitlab/WorkItems::Type/1', name: 'Issue' };
const ITERATION_STATES = ['upcoming', 'current', 'closed'];
const GROUP_LABELS = ['roadmap', 'backend', 'Doing'].map((title, index) => ({
  id: `gid://gitlab/GroupLabel/${index + 5}`,
  title,
  color: '#1068bf',
  description: null,
}));

const connection = <T>(nodes: T[]) => ({ nodes, pageInfo: { hasNextPage: false, endCursor: null } });
const numericId = (gid: unknown) => Number(String(gid).split('/').pop());

function cadence(id: number): object {
  return {
    id: `gid://gitlab/Iterations::Cadence/${id}`,
    title: `Cadence ${id}`,
    description: null,
    durationInWeeks: 2,
    iterationsInAdvance: 3,
    startDate: '2024-05-01',
    automatic: id === 1,
    active: true,
    rollOver: false,
  };
}

function iteration(id: number): object {
  return {
    id: `gid://gitlab/Iteration/${id}`,
    iid: String(id - 50),
    sequence: id - 50,
    title: `Sprint ${id - 50}`,
    description: 'Two weeks of work.',
    state: ITERATION_STATES[(id - 51 + 3) % 3],
    startDate: '2024-05-01',
    dueDate: '2024-05-14',
    webUrl: `${WEB}/groups/group/-/iterations/${id}`,
    iterationCadence: cadence(1),
  };
}

/** A child issue of an epic: work item ids are the issues' global ids. */
function childIssue(iid: number): object {
  return {
    id: `gid://gitlab/WorkItem/${1000 + iid}`,
    iid: String(iid),
    title: `Issue number ${iid}`,
    state: 'OPEN',
    confidential: false,
    webUrl: `${WEB}/group/project/-/issues/${iid}`,
    createdAt: CREATED,
    updatedAt: CREATED,
    reference: () => `group/project#${iid}`,
    workItemType: ISSUE_TYPE,
    widgets: [],
  };
}

interface EpicFields {
  title?: string;
  description?: string;
  state?: string;
  startDate?: string | null;
  dueDate?: string | null;
  labels?: string[];
}

function epic(group: string, iid: number, fields: EpicFields = {}): object {
  const labels = fields.labels ?? ['roadmap'];
  return {
    id: `gid://gitlab/WorkItem/${700 + iid}`,
    iid: String(iid),
    title: fields.title ?? `Epic ${iid}`,
    state: fields.state ?? 'OPEN',
    confidential: false,
    webUrl: `${WEB}/groups/${group}/-/epics/${iid}`,
    createdAt: CREATED,
    updatedAt: CREATED,
    author: { id: 'gid://gitlab/User/1', username: 'alice', name: 'Alice Example', webUrl: `${WEB}/alice` },
    reference: ({ full }: { full?: boolean }) => (full ? `${group}&${iid}` : `&${iid}`),
    workItemType: EPIC_TYPE,
    widgets: [
      { __typename: 'WorkItemWidgetDescription', type: 'DESCRIPTION', description: fields.description ?? 'A large piece of work.' },
      {
        __typename: 'WorkItemWidgetLabels',
        type: 'LABELS',
        labels: connection(GROUP_LABELS.filter((label) => labels.includes(label.title))),
      },
      {
        __typename: 'WorkItemWidgetStartAndDueDate',
        type: 'START_AND_DUE_DATE',
        startDate: fields.startDate === undefined ? '2024-05-01' : fields.startDate,
        dueDate: fields.dueDate === undefined ? '2024-07-01' : fields.dueDate,
        isFixed: true,
      },
      {
        __typename: 'WorkItemWidgetHierarchy',
        type: 'HIERARCHY',
        parent: null,
        hasChildren: true,
        children: () => connection([childIssue(1), childIssue(2)]),
      },
    ],
  };
}

function group(fullPath: string): object {
  return {
    id: 'gid://gitlab/Group/9',
    fullPath,
    iterationCadences: () => connection([cadence(1), cadence(2)]),
    workItems: ({ state, types }: { state?: string; types?: string[] }) =>
      connection(
        types && !types.includes('EPIC')
          ? []
          : [epic(fullPath, 1), epic(fullPath, 2), epic(fullPath, 3, { state: 'CLOSED' })].filter(
              (item) => !state || state === 'all' || (state === 'closed') === ((item as { state: string }).state === 'CLOSED'),
            ),
      ),
    labels: ({ searchTerm, title }: { searchTerm?: string; title?: string }) =>
      connection(GROUP_LABELS.filter((label) => label.title.includes(searchTerm ?? title ?? ''))),
  };
}

const labelTitles = (ids: unknown): string[] =>
  Array.isArray(ids) ? GROUP_LABELS.filter((label) => ids.includes(label.id)).map((label) => label.title) : [];

function payload(field: string, value: object): object {
  return { errors: [], [field]: value };
}

interface Input {
  input: Record<string, unknown>;
}

function rootValue(version: string): Record<string, unknown> {
  return {
    metadata: () => ({ version, revision: 'a1b2c3d4', enterprise: version.endsWith('-ee') }),
    group: ({ fullPath }: { fullPath: string }) => group(fullPath),
    namespace: ({ fullPath }: { fullPath: string }) => ({
      id: 'gid://gitlab/Group/9',
      fullPath,
      workItem: ({ iid }: { iid: string }) => (Number(iid) > 0 && Number(iid) < 100 ? epic(fullPath, Number(iid)) : null),
      workItemTypes: ({ name }: { name?: string }) => connection(!name || name === 'EPIC' ? [EPIC_TYPE] : [ISSUE_TYPE]),
    }),
    iteration: ({ id }: { id: string }) => (numericId(id) ? iteration(numericId(id)) : null),
    iterationCreate: ({ input }: Input) =>
      payload('iteration', { ...iteration(54), title: input.title ?? null, startDate: input.startDate, dueDate: input.dueDate }),
    updateIteration: ({ input }: Input) =>
      payload('iteration', { ...iteration(Number(input.id) || numericId(input.id)), ...pick(input, ['title', 'description']) }),
    iterationDelete: () => payload('group', group('group')),
    iterationCadenceCreate: ({ input }: Input) =>
      payload('iterationCadence', { ...cadence(3), ...pick(input, ['title', 'durationInWeeks', 'automatic', 'startDate']) }),
    workItemCreate: ({ input }: Input) =>
      payload(
        'workItem',
        epic(String(input.namespacePath), 8, {
          title: String(input.title),
          description: (input.descriptionWidget as { description?: string } | undefined)?.description ?? '',
          labels: labelTitles((input.labelsWidget as { labelIds?: unknown } | undefined)?.labelIds),
          ...dates(input.startAndDueDateWidget),
        }),
      ),
    workItemUpdate: ({ input }: Input) => {
      const id = numericId(input.id);
      if (id > 1000) return payload('workItem', childIssue(id - 1000));
      return payload(
        'workItem',
        epic('group', id - 700, {
          ...(typeof input.title === 'string' ? { title: input.title } : {}),
          ...(input.stateEvent ? { state: input.stateEvent === 'CLOSE' ? 'CLOSED' : 'OPEN' } : {}),
          ...dates(input.startAndDueDateWidget),
        }),
      );
    },
  };
}

function pick(input: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
}

function dates(widget: unknown): EpicFields {
  const { startDate, dueDate } = (widget ?? {}) as { startDate?: string; dueDate?: string };
  return { ...(startDate ? { startDate } : {}), ...(dueDate ? { dueDate } : {}) };
}

function describeCall(query: string, variables: Record<string, unknown>): GraphQLCall | undefined {
  try {
    const operation = parse(query).definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return undefined;
    const fields = operation.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [selection.name.value] : []));
    return { operation: operation.operation, fields, variables };
  } catch {
    return undefined;
  }
}

/** Runs a GraphQL request body (`{query, variables}`) against the schema subset. */
export async function answerGraphQL(body: unknown, options: { version: string }): Promise<{ call?: GraphQLCall; body: unknown }> {
  const { query, variables = {} } = (typeof body === 'object' && body !== null ? body : {}) as {
    query?: unknown;
    variables?: Record<string, unknown>;
  };
  if (typeof query !== 'string') return { body: { errors: [{ message: 'No query string was present' }] } };
  const call = describeCall(query, variables);
  const result = await graphql({ schema: SCHEMA, source: query, variableValues: variables, rootValue: rootValue(options.version) });
  return { ...(call ? { call } : {}), body: JSON.parse(JSON.stringify(result)) };
}
