import type { ToolResult } from '@nexus/core';
import type { ActionContext, GitLabArguments } from '../define-gitlab-skill.js';

/** Arguments of `gitlab_epic`. */
export interface GitLabEpicArguments extends GitLabArguments {
  iid?: number;
  title?: string;
  description?: string;
  labels?: string[];
  start_date?: string;
  due_date?: string;
  parent_iid?: number;
  state?: string;
  author?: string;
  search?: string;
  issue_id?: number;
  epic_issue_id?: number;
  limit?: number;
}

/** An epic as both APIs describe it, for the output. */
export interface EpicView {
  iid: number;
  title: string;
  state: string;
  description?: string | null;
  labels: string[];
  author?: string | undefined;
  startDate?: string | null | undefined;
  dueDate?: string | null | undefined;
  parent?: string | undefined;
  webUrl?: string | undefined;
  /** What GitLab returned, for `data`. */
  raw: unknown;
}

/** An issue in an epic. */
export interface EpicChild {
  /** The issue's global id: what `add-issue` and `remove-issue` take as `issue_id`. */
  id: number;
  reference: string;
  title: string;
  raw: unknown;
}

export type EpicContext = ActionContext<GitLabEpicArguments>;

/** One way of reaching epics: the deprecated REST API, or GraphQL work items. */
export interface EpicBackend {
  /** Words for the output: which API served the call. */
  readonly api: string;
  list(context: EpicContext): Promise<EpicView[]>;
  get(context: EpicContext): Promise<EpicView>;
  create(context: EpicContext): Promise<ToolResult>;
  update(context: EpicContext): Promise<ToolResult>;
  setState(context: EpicContext, event: 'close' | 'reopen'): Promise<ToolResult>;
  addIssue(context: EpicContext): Promise<ToolResult>;
  removeIssue(context: EpicContext): Promise<ToolResult>;
  listIssues(context: EpicContext): Promise<EpicChild[]>;
}
