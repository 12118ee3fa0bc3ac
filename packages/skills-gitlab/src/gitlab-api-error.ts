import { type ErrorOptions, type JsonObject, NexusError, type ToolErrorKind } from '@nexus/core';

const MAX_MESSAGE_CHARS = 500;

/** What each error status means, in words an LLM can act on. */
const STATUS_HINTS: Record<number, { kind: ToolErrorKind; hint: string }> = {
  400: { kind: 'invalid_input', hint: 'bad request' },
  401: { kind: 'forbidden', hint: 'unauthorized: the token is missing, invalid or expired' },
  403: { kind: 'forbidden', hint: 'forbidden: the token lacks the role or scope, or the feature needs a higher GitLab tier' },
  404: { kind: 'not_found', hint: 'not found, or not visible to this token' },
  405: { kind: 'invalid_input', hint: 'method not allowed for this resource' },
  409: { kind: 'execution_failed', hint: 'conflict: it already exists or changed meanwhile' },
  412: { kind: 'execution_failed', hint: 'precondition failed: the resource changed meanwhile' },
  422: { kind: 'invalid_input', hint: 'unprocessable: GitLab rejected the values' },
  429: { kind: 'execution_failed', hint: 'rate limited' },
};

function hintFor(status: number): { kind: ToolErrorKind; hint: string } {
  if (STATUS_HINTS[status]) return STATUS_HINTS[status];
  if (status >= 500) return { kind: 'execution_failed', hint: 'GitLab server error; try again later' };
  if (status >= 300 && status < 400) return { kind: 'execution_failed', hint: 'redirect, not followed' };
  return { kind: 'execution_failed', hint: 'request failed' };
}

/** Squeezes any text into one line of bounded length. */
function oneLine(text: string, max = MAX_MESSAGE_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The message of a GitLab error body: `message`, else `error`, else the body itself. */
function messageFromBody(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object') {
      const { message, error, error_description: description } = parsed as Record<string, unknown>;
      const picked = message ?? error ?? description;
      if (picked !== undefined) return typeof picked === 'string' ? picked : JSON.stringify(picked);
    }
    return JSON.stringify(parsed);
  } catch {
    return body;
  }
}

/** Options of {@link GitLabApiError}. */
export interface GitLabApiErrorOptions extends ErrorOptions {
  /** HTTP status of the answer, or 0 when no answer arrived. */
  status: number;
  /** The result's kind, when the status alone does not say it (default: by status). */
  kind?: ToolErrorKind;
}

/**
 * A failed GitLab request: an HTTP status (0 for transport failures) and a one-line message.
 * Thrown out of an action, it becomes a failed `ToolResult` of the matching kind, keeping
 * `recoverable` and `data`.
 */
export class GitLabApiError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/skills-gitlab/GitLabApiError');
  static override readonly code = 'GITLAB_API';
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;

  constructor(message: string, options: GitLabApiErrorOptions) {
    const { status, kind = hintFor(status).kind, ...rest } = options;
    super(oneLine(message), { ...rest, kind });
    this.status = status;
  }

  /** The error for an HTTP error response: `GitLab API error 404 (not found, …): <message>`. */
  static fromResponse(status: number, body: string): GitLabApiError {
    const { hint } = hintFor(status);
    const detail = oneLine(messageFromBody(body));
    return new GitLabApiError(`GitLab API error ${status} (${hint})${detail ? `: ${detail}` : '.'}`, { status });
  }
}

/**
 * The error of a follow-up request that failed after a first change went through (a release
 * after its tag, a board's label scope after the board): it says both, keeps what was made as
 * `data`, and is not recoverable — repeating the call would make the first change again.
 */
export function followUpFailed(done: string, followUp: string, error: unknown, data: Record<string, unknown>): GitLabApiError {
  return new GitLabApiError(`${done}, but ${followUp} failed: ${(error as Error).message}`, {
    status: GitLabApiError.isInstance(error) ? error.status : 0,
    kind: 'execution_failed',
    recoverable: false,
    cause: error,
    data: data as JsonObject,
  });
}
