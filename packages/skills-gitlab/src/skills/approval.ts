import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText } from '../format.js';
import { listOf, MAYBE_OBJECT, NOTHING, objectWith } from '../output-schema.js';
import { integer, text } from '../schema.js';

/** Arguments of `gitlab_approval`. */
export interface GitLabApprovalArguments extends GitLabArguments {
  iid?: number;
  sha?: string;
  name?: string;
  approvals_required?: number;
  users?: number[];
  groups?: number[];
  rule_id?: number;
}

interface Person {
  username: string;
  name?: string;
}

interface Approvals {
  approved?: boolean;
  approvals_required?: number;
  approvals_left?: number;
  approved_by?: Array<{ user: Person }>;
  suggested_approvers?: Person[];
  approval_rules_overwritten?: boolean;
}

interface Rule {
  id: number;
  name: string;
  rule_type?: string;
  approvals_required?: number;
  eligible_approvers?: Person[];
  users?: Person[];
  groups?: Array<{ full_path?: string; name?: string }>;
  contains_hidden_groups?: boolean;
}

const ids = (description: string) => ({ type: 'array', items: { type: 'integer', minimum: 1 }, description });
const mrPath = (context: ActionContext<GitLabApprovalArguments>, suffix: string) =>
  `${context.base}/merge_requests/${context.args.iid}${suffix}`;
const person = (user: Person) => `@${user.username}${user.name ? ` (${user.name})` : ''}`;

function ruleLines(rule: Rule): string {
  const eligible = (rule.eligible_approvers ?? rule.users ?? []).map((user) => `@${user.username}`).join(', ') || 'anyone';
  const groups = (rule.groups ?? []).map((group) => group.full_path ?? group.name).join(', ');
  return [
    `${rule.name} (#${rule.id}, ${rule.rule_type ?? 'regular'}): ${rule.approvals_required ?? 0} required`,
    `  eligible: ${eligible}${groups ? `; groups: ${groups}` : ''}${rule.contains_hidden_groups ? ' (plus groups hidden from you)' : ''}`,
  ].join('\n');
}

/** `gitlab_approval`: merge request approvals and approval rules. */
export const gitlabApprovalSkill = defineGitLabSkill<GitLabApprovalArguments>({
  name: 'gitlab_approval',
  title: 'GitLab approvals',
  description: 'GitLab MR approvals and approval rules (rules: Premium).',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      iid: integer('MR IID (rules: omit for project rules)'),
      sha: text('approve: MR head SHA guard'),
      name: text('create-rule'),
      approvals_required: integer(undefined, 0),
      users: ids('create-rule: user ids'),
      groups: ids('create-rule: group ids'),
      rule_id: integer(),
    },
  },
  actions: {
    status: {
      result: objectWith('iid'),
      required: ['iid'],
      async run(context) {
        const approvals = await context.get<Approvals>(mrPath(context, '/approvals'));
        const output = detailText(`Approvals of MR !${context.args.iid}`, [
          ['Status', approvals.approved ? 'approved' : 'pending'],
          ['Required', approvals.approvals_required],
          ['Remaining', approvals.approvals_left],
          ['Approved by', (approvals.approved_by ?? []).map((entry) => person(entry.user))],
          ['Suggested approvers', (approvals.suggested_approvers ?? []).map(person)],
          ['Note', approvals.approval_rules_overwritten ? 'approval rules overwritten on this MR' : undefined],
        ]);
        return reply(output, approvals);
      },
    },
    'approval-state': {
      result: objectWith('rules'),
      required: ['iid'],
      async run(context) {
        const state = await context.get<{
          approval_rules_overwritten?: boolean;
          rules?: Array<Rule & { approved?: boolean; approved_by?: Person[] }>;
        }>(mrPath(context, '/approval_state'));
        const rules = state.rules ?? [];
        const line = (rule: Rule & { approved?: boolean; approved_by?: Person[] }) =>
          `${rule.approved ? '[approved]' : '[pending]'} ${ruleLines(rule)}\n  approved by: ${(rule.approved_by ?? []).map(person).join(', ') || 'nobody yet'}`;
        const note = state.approval_rules_overwritten ? '\n(approval rules overwritten on this MR)' : '';
        return reply(`${listText('approval rules', rules, line)}${note}`, state);
      },
    },
    approve: {
      result: objectWith('iid'),
      required: ['iid'],
      run: (context) =>
        context.send<Approvals>(
          { method: 'POST', path: mrPath(context, '/approve'), ...(context.args.sha ? { body: { sha: context.args.sha } } : {}) },
          (approvals) => `Approved MR !${context.args.iid}; ${approvals.approvals_left ?? '?'} approval(s) still needed.`,
        ),
    },
    unapprove: {
      result: MAYBE_OBJECT,
      required: ['iid'],
      run: (context) =>
        context.send({ method: 'POST', path: mrPath(context, '/unapprove') }, () => `Withdrew your approval of MR !${context.args.iid}.`),
    },
    rules: {
      result: listOf('id', 'name'),
      async run(context) {
        const path = context.args.iid ? mrPath(context, '/approval_rules') : `${context.base}/approval_rules`;
        const rules = await context.list<Rule>(path, {}, 100);
        return reply(listText('approval rules', rules, ruleLines), rules);
      },
    },
    'create-rule': {
      result: objectWith('id', 'name'),
      required: ['name', 'approvals_required'],
      run(context) {
        const { name, approvals_required, users, groups } = context.args;
        const body: JsonObject = { name: name as string, approvals_required: approvals_required as number };
        if (users?.length) body.user_ids = users;
        if (groups?.length) body.group_ids = groups;
        return context.send<Rule>(
          { method: 'POST', path: `${context.base}/approval_rules`, body },
          (rule) => `Created approval rule ${rule.name} (#${rule.id}), ${rule.approvals_required ?? approvals_required} required.`,
        );
      },
    },
    'delete-rule': {
      result: NOTHING,
      required: ['rule_id'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: `${context.base}/approval_rules/${context.args.rule_id}` },
          () => `Deleted approval rule #${context.args.rule_id}.`,
        ),
    },
  },
});
