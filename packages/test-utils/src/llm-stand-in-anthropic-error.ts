interface AnthropicErrorDefaults {
  type: string;
  message: string;
}

/** Anthropic's error type and usual message per status. */
const ERRORS: Record<number, AnthropicErrorDefaults> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'The requested resource could not be found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.' },
  500: { type: 'api_error', message: 'Internal server error' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

/** Anthropic's error body: `{ type: 'error', error: { type, message } }`. */
export function anthropicErrorBody(status: number, message?: string): unknown {
  const defaults = ERRORS[status] ?? ERRORS[status >= 500 ? 500 : 400]!;
  return { type: 'error', error: { type: defaults.type, message: message ?? defaults.message } };
}
