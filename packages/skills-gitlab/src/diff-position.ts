import { InvalidParametersError, type JsonObject } from '@nexus/core';
import type { ActionContext, GitLabArguments } from './define-gitlab-skill.js';

interface DiffRefs {
  base_sha?: string;
  start_sha?: string;
  head_sha?: string;
}

/** Where a line comment goes: a file of the MR's diff and a line in its new (or old) version. */
export interface LineTarget {
  path?: string | undefined;
  line?: number | undefined;
  lineType?: 'new' | 'old' | undefined;
}

/**
 * The `position` of a line comment on merge request `mrPath`, built from the MR's current
 * `diff_refs` (GitLab refuses positions without them). `undefined` when no line is targeted.
 */
export async function diffPosition(
  context: ActionContext<GitLabArguments>,
  mrPath: string,
  target: LineTarget,
): Promise<JsonObject | undefined> {
  const { path, line, lineType = 'new' } = target;
  if (!path || !line) return undefined;
  const { diff_refs: refs } = await context.get<{ diff_refs?: DiffRefs | null }>(mrPath);
  if (!refs?.head_sha || !refs.base_sha) {
    throw new InvalidParametersError(
      'The merge request has no diff yet, so a line comment cannot be placed; comment without `path` and `line`.',
      { parameter: 'path' },
    );
  }
  const position: JsonObject = {
    base_sha: refs.base_sha,
    start_sha: refs.start_sha ?? refs.base_sha,
    head_sha: refs.head_sha,
    position_type: 'text',
    new_path: path,
    old_path: path,
  };
  if (lineType === 'old') position.old_line = line;
  else position.new_line = line;
  return position;
}
