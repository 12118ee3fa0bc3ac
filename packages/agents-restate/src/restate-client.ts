import { decodeRefusal } from './refusals.js';

/** Where a worker reaches the Restate cluster: its ingress (invocations) and admin (deployments, SQL introspection) URLs. */
export interface RestateUrls {
  /** e.g. `http://127.0.0.1:8080` */
  readonly ingress: string;
  /** e.g. `http://127.0.0.1:9070` */
  readonly admin: string;
}

/** An invocation Restate cancelled (before it started, or one whose handler let the cancellation through). */
export class InvocationCancelled extends Error {}

async function answerOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (response.ok) return text === '' ? null : JSON.parse(text);
  if (response.status === 409) throw new InvocationCancelled(text);
  let message = text;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {}
  throw decodeRefusal(message) ?? new Error(`Restate answered ${response.status}: ${message}`);
}

/**
 * Calls handler `handler` of virtual object `service` for `key` through the ingress and waits for
 * its answer; with `idempotencyKey`, a repeated call attaches to the first (Restate keeps its answer).
 * A refusal the handler made rejects as that `AgentRpcError`.
 */
export async function invokeObject(
  urls: RestateUrls,
  target: { service: string; key: string; handler: string },
  body: unknown,
  options: { idempotencyKey?: string; oneWay?: boolean; signal?: AbortSignal } = {},
): Promise<unknown> {
  const path = `/${target.service}/${encodeURIComponent(target.key)}/${target.handler}${options.oneWay ? '/send' : ''}`;
  const response = await fetch(new URL(path, urls.ingress), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}) },
    body: JSON.stringify(body),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return answerOf(response);
}

/** Registers (or re-registers: `force`) the deployment at `uri` with the admin API; Restate discovers its services over HTTP/2, or HTTP/1.1 with `http1`. */
export async function registerDeployment(urls: RestateUrls, uri: string, options: { http1: boolean }): Promise<void> {
  const response = await fetch(new URL('/deployments', urls.admin), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri, use_http_11: options.http1, force: true }),
  });
  await answerOf(response);
}

/** A SQL string literal. */
export function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The rows of a query of the admin API's SQL introspection. */
export async function queryRows<Row>(urls: RestateUrls, query: string): Promise<Row[]> {
  const response = await fetch(new URL('/query', urls.admin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query }),
  });
  return ((await answerOf(response)) as { rows: Row[] }).rows;
}

/** Cancels an invocation (Restate delivers the cancellation at its next journaled step). */
export async function cancelInvocation(urls: RestateUrls, invocationId: string): Promise<void> {
  await answerOf(await fetch(new URL(`/invocations/${encodeURIComponent(invocationId)}/cancel`, urls.admin), { method: 'PATCH' }));
}

/** Waits for an invocation's answer (one that ended is answered at once, while Restate keeps it). */
export async function attachInvocation(urls: RestateUrls, invocationId: string, signal?: AbortSignal): Promise<unknown> {
  return answerOf(
    await fetch(new URL(`/restate/invocation/${encodeURIComponent(invocationId)}/attach`, urls.ingress), signal ? { signal } : {}),
  );
}
