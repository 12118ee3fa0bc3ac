import type { JsonObject } from '@nexus/core';
import { defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { flag, integer, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_label`. */
export interface GitLabLabelArguments extends GitLabArguments {
  name?: string;
  new_name?: string;
  color?: string;
  description?: string;
  priority?: number;
  search?: string;
  include_ancestor_groups?: boolean;
}

interface Label {
  id: number;
  name: string;
  color?: string;
  text_color?: string;
  description?: string | null;
  priority?: number | null;
  is_project_label?: boolean;
  open_issues_count?: number;
  closed_issues_count?: number;
  open_merge_requests_count?: number;
}

const labelPath = (base: string, name: string | undefined) => `${base}/labels/${segment(name ?? '', 'name')}`;

const LABEL = objectWith('id', 'name');

/** `gitlab_label`: project labels. */
export const gitlabLabelSkill = defineGitLabSkill<GitLabLabelArguments>({
  name: 'gitlab_label',
  title: 'GitLab labels',
  description: 'GitLab project labels.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      name: text(),
      new_name: text(),
      color: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' },
      description: text(),
      priority: integer(undefined, 0),
      search: text(),
      include_ancestor_groups: flag('list: include group labels (default true)'),
    },
  },
  actions: {
    list: {
      result: listOf('id', 'name'),
      async run(context) {
        const { search, include_ancestor_groups } = context.args;
        const labels = await context.list<Label>(
          `${context.base}/labels`,
          { search, include_ancestor_groups: include_ancestor_groups === false ? false : undefined },
          100,
        );
        const line = (label: Label) =>
          `${label.color ?? ''} ${label.name}${label.priority !== null && label.priority !== undefined ? ` (priority ${label.priority})` : ''}${label.description ? ` — ${label.description}` : ''}`;
        return reply(listText('labels', labels, line), labels);
      },
    },
    get: {
      result: LABEL,
      required: ['name'],
      async run(context) {
        const label = await context.get<Label>(labelPath(context.base, context.args.name));
        const output = detailText(label.name, [
          ['Color', label.color],
          ['Text color', label.text_color],
          ['Description', label.description],
          ['Priority', label.priority],
          ['Project label', label.is_project_label === undefined ? undefined : label.is_project_label ? 'yes' : 'no (group label)'],
          ['Open issues', label.open_issues_count],
          ['Closed issues', label.closed_issues_count],
          ['Open MRs', label.open_merge_requests_count],
        ]);
        return reply(output, label);
      },
    },
    create: {
      result: LABEL,
      required: ['name', 'color'],
      run(context) {
        const { name, color, description, priority } = context.args;
        const body: JsonObject = { name: name as string, color: color as string };
        setIfPresent(body, 'description', description);
        setIfPresent(body, 'priority', priority);
        return context.send<Label>(
          { method: 'POST', path: `${context.base}/labels`, body },
          (label) => `Created label ${label.name} (${label.color}).`,
        );
      },
    },
    update: {
      result: LABEL,
      required: ['name'],
      run(context) {
        const { name, new_name, color, description, priority } = context.args;
        const body: JsonObject = {};
        setIfPresent(body, 'new_name', new_name);
        setIfPresent(body, 'color', color);
        setIfPresent(body, 'description', description);
        setIfPresent(body, 'priority', priority);
        return context.send<Label>(
          { method: 'PUT', path: labelPath(context.base, name), body: requireFields(body) },
          (label) => `Updated label ${label.name}.`,
        );
      },
    },
    delete: {
      result: NOTHING,
      required: ['name'],
      run: (context) =>
        context.send({ method: 'DELETE', path: labelPath(context.base, context.args.name) }, () => `Deleted label ${context.args.name}.`),
    },
  },
});
