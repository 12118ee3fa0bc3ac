import type { JsonSchema, JsonSchemaObject } from '@nexus/core';
import { RUN_RESULT_DATA_SCHEMA } from '@nexus/process';

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });
const closed = (properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  additionalProperties: false,
});
const person = closed({ name: { type: 'string' }, email: { type: 'string' }, date: { type: 'string' } });

/** `data.status`: a {@link GitStatus}. */
const STATUS: JsonSchema = closed({
  branch: closed({
    head: nullable('string'),
    oid: nullable('string'),
    upstream: nullable('string'),
    ahead: nullable('integer'),
    behind: nullable('integer'),
  }),
  entries: {
    type: 'array',
    items: closed(
      {
        kind: { enum: ['changed', 'renamed', 'copied', 'unmerged', 'untracked', 'ignored'] },
        index: { type: 'string' },
        worktree: { type: 'string' },
        path: { type: 'string' },
        originalPath: { type: 'string' },
      },
      ['originalPath'],
    ),
  },
  clean: { type: 'boolean' },
});

/** `data.commits`: {@link GitCommit}s. */
const COMMITS: JsonSchema = {
  type: 'array',
  items: closed({
    hash: { type: 'string' },
    shortHash: { type: 'string' },
    parents: { type: 'array', items: { type: 'string' } },
    author: person,
    committer: person,
    subject: { type: 'string' },
    body: { type: 'string' },
  }),
};

/** `data.branches`: {@link GitBranch}es. */
const BRANCHES: JsonSchema = {
  type: 'array',
  items: closed({
    name: { type: 'string' },
    ref: nullable('string'),
    current: { type: 'boolean' },
    commit: { type: 'string' },
    upstream: nullable('string'),
    track: nullable('string'),
    subject: { type: 'string' },
  }),
};

/**
 * The git skill's `data`: the run ({@link RUN_RESULT_DATA_SCHEMA}), plus the parsed output of
 * `status`, `log` or a branch listing (`stdout` then holds the text rendered from it).
 */
export const GIT_OUTPUT_SCHEMA: JsonSchemaObject = {
  ...RUN_RESULT_DATA_SCHEMA,
  properties: { ...RUN_RESULT_DATA_SCHEMA.properties, status: STATUS, commits: COMMITS, branches: BRANCHES },
  additionalProperties: false,
};
