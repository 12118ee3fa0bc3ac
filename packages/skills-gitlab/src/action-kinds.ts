/**
 * Actions that only read, shared by every GitLab skill. Any other action name counts as
 * mutating — the fail-safe side: it asks for confirmation in `trusted` and accepts `dry_run`.
 */
export const READ_ONLY_ACTIONS: ReadonlySet<string> = new Set([
  'list',
  'get',
  'search',
  'diff',
  'commits',
  'pipelines',
  'jobs',
  'variables',
  'log',
  'status',
  'browse',
  'list-protected',
  'list-user-lists',
  'get-user-list',
  'list-cadences',
  'issues',
  'merge-requests',
  'list-issues',
  'list-lists',
  'stats',
  'rules',
  'whoami',
  'tree',
  'get-commit',
  'compare',
  'members',
  'links',
  'approval-state',
  'list-releases',
  'get-release',
]);

/** Whether an action changes something on the server or on disk. */
export function isMutatingAction(action: string): boolean {
  return !READ_ONLY_ACTIONS.has(action);
}

/** Whether an action destroys data (feeds the MCP `destructiveHint`). */
export function isDestructiveAction(action: string): boolean {
  return /^(delete|remove|erase|unprotect|unlink)/.test(action);
}
