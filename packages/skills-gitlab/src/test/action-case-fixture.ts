/** One call of one action and the request it must send. */
export interface ActionCase {
  tool: string;
  args: Record<string, unknown>;
  /** The request the call ends with (its last request); `POST /graphql` for a GraphQL operation. */
  method: string;
  path: string;
  /** For a GraphQL operation: its top-level fields and exact variables (instead of `body`). */
  graphql?: { fields: string[]; variables: Record<string, unknown> };
  /** Path shown by `dry_run` for its last request, when it differs (an id only known after the first request). */
  dryRunPath?: string;
  query?: Record<string, string>;
  /** Exact JSON body (`undefined`: none). */
  body?: unknown;
  /** Body shown by `dry_run`, when it differs (secrets masked). */
  dryRunBody?: unknown;
  /** What the output must match. */
  output?: RegExp;
  /** Words for the test title, when one action has several cases. */
  note?: string;
}

/** `"gitlab_issue create (note)"`. */
export function caseTitle(testCase: ActionCase): string {
  return `${testCase.tool} ${String(testCase.args.action)}${testCase.note ? ` (${testCase.note})` : ''}`;
}
