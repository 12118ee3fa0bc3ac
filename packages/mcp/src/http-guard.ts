import type { IncomingHttpHeaders } from 'node:http';

/** Why a request is turned away before it reaches MCP. */
export interface Refusal {
  status: 401 | 403 | 404 | 405 | 413 | 415;
  message: string;
}

/** What {@link guardOrigin} and {@link guardRoute} check a request against. */
export interface GuardPolicy {
  /** Accepted `Host` header values (`name:port`), lower case. */
  hosts: ReadonlySet<string>;
  /** Accepted `Origin` header values; a request without `Origin` (not from a browser) passes. */
  origins: ReadonlySet<string>;
  /** The one path MCP is served on. */
  path: string;
}

const METHODS = new Set(['GET', 'POST', 'DELETE']);

/** Whether a `Content-Type` header names JSON (parameters such as `charset` allowed). */
function isJsonContentType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * Checks where a request comes from, before anything else: the `Host` (DNS rebinding) and
 * `Origin` (browser pages) headers → 403. Returns `undefined` for a request that may proceed (to
 * its bearer token, then {@link guardRoute}).
 */
export function guardOrigin(headers: IncomingHttpHeaders, policy: GuardPolicy): Refusal | undefined {
  if (!policy.hosts.has((headers.host ?? '').toLowerCase()))
    return { status: 403, message: `Host "${headers.host ?? ''}" is not allowed.` };
  if (headers.origin !== undefined && !policy.origins.has(headers.origin))
    return { status: 403, message: `Origin "${headers.origin}" is not allowed.` };
  return undefined;
}

/**
 * Checks what an authorized request asks for, without its body: the path → 404, the method →
 * 405, a POST body that is not JSON → 415. Returns `undefined` for a request that may proceed.
 */
export function guardRoute(
  method: string | undefined,
  url: string | undefined,
  headers: IncomingHttpHeaders,
  policy: GuardPolicy,
): Refusal | undefined {
  if (new URL(url ?? '/', 'http://localhost').pathname !== policy.path)
    return { status: 404, message: `Not found; MCP is served on ${policy.path}.` };
  if (!METHODS.has(method ?? '')) return { status: 405, message: `Method ${method ?? ''} is not allowed; use POST, GET or DELETE.` };
  if (method === 'POST' && !isJsonContentType(headers['content-type'])) {
    return { status: 415, message: `Content-Type "${headers['content-type'] ?? ''}" is not accepted; send application/json.` };
  }
  return undefined;
}
