import { NexusError, type NexusErrorOptions } from '@nexus/core';
import { APICallError, RetryError } from 'ai';
import type { ResolvedModel } from './resolve-model.js';

/** The model provider failed a request (after the provider package's own retries). */
export class ProviderError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/agents/ProviderError');
  static override readonly code: string = 'PROVIDER';
  /** The HTTP status, when the provider answered. */
  readonly status: number | undefined;

  constructor(message: string, options: NexusErrorOptions & { status?: number } = {}) {
    super(message, options);
    this.status = options.status;
  }
}

const MAX_DETAIL = 300;

function hint(status: number, model: ResolvedModel): string {
  if (status === 401 || status === 403) return model.keyVariable ? `check ${model.keyVariable}` : 'the endpoint refused the request';
  if (status === 404) return `no model "${model.id}" or no such endpoint`;
  if (status === 429) return 'rate limited, still after retries';
  if (status >= 500) return 'the provider failed, still after retries';
  return 'the request was refused';
}

function providerDetail(error: APICallError): string {
  let detail = error.message;
  try {
    const body = JSON.parse(error.responseBody ?? '');
    detail = body?.error?.message ?? detail;
  } catch {}
  return detail.replace(/\s+/g, ' ').trim().slice(0, MAX_DETAIL);
}

/**
 * One line for a failed model request: the alias, the endpoint host, the status and what to do
 * (`model "fast" at 127.0.0.1:11434: 401: check LOCAL_LLM_KEY (Invalid API key)`), with the API
 * key redacted wherever the provider echoed it.
 */
export function toProviderError(error: unknown, model: ResolvedModel): ProviderError {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const where = `model "${model.alias}" at ${model.host}`;
  if (APICallError.isInstance(last) && last.statusCode !== undefined) {
    const { statusCode: status } = last;
    const message = `${where}: ${status}: ${hint(status, model)} (${providerDetail(last)})`;
    return new ProviderError(model.redact(message), { status, cause: error });
  }
  const reason = last instanceof Error ? (last.cause instanceof Error ? last.cause.message : last.message) : String(last);
  return new ProviderError(model.redact(`${where}: cannot reach the provider (${reason.slice(0, MAX_DETAIL)})`), { cause: error });
}
