/** What a rule decides for the calls it matches. */
export type RuleDecision = 'allow' | 'ask' | 'deny';

/** The decisions a rule may make, from most to least permissive. */
export const RULE_DECISIONS: readonly RuleDecision[] = ['allow', 'ask', 'deny'];

/**
 * One entry of a policy's ordered `rules`: the calls of `tool` whose arguments match every pattern
 * of `match` are allowed, asked or denied. Patterns are globs; a path argument is resolved against
 * the working directory (symlinks too) before it is matched, and so is the pattern. Plain data, so
 * that a digest of the permissions covers the rules.
 *
 * ```json
 * { "tool": "git", "match": { "command": "push *" }, "decision": "ask", "reason": "pushes are reviewed" }
 * ```
 */
export interface ToolRule {
  /** The tool's name. */
  tool: string;
  /** Glob per argument name; every one must match (an absent argument matches nothing). */
  match?: Record<string, string>;
  decision: RuleDecision;
  /** Said to the caller (denied) or the person asked (ask). */
  reason?: string;
}

const PATH_PARAMETER_NAMES = new Set(['path', 'paths', 'cwd', 'source', 'destination', 'target', 'directory']);

/**
 * Whether an argument of this name holds a path (`path`, `source`, `destination`, `target`,
 * `directory`, `cwd`, or a name ending in `_path`, `_file`, `_dir`): rules compare such arguments
 * as resolved absolute paths, so that `src/../secret` and a symlink into `secret/` do not dodge a
 * rule about `secret/**`.
 */
export function isPathParameter(name: string): boolean {
  return PATH_PARAMETER_NAMES.has(name) || /_(?:path|paths|file|dir|directory)$/.test(name);
}
