interface OpenAiErrorDefaults {
  type: string;
  code: string | null;
  message: string;
}

/** OpenAI's usual error type, code and message per status. */
const ERRORS: Record<number, OpenAiErrorDefaults> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
  },
  403: {
    type: 'invalid_request_error',
    code: 'unsupported_country_region_territory',
    message: 'Country, region, or territory not supported',
  },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again later.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later.' },
};

function errorDefaults(status: number): OpenAiErrorDefaults {
  return ERRORS[status] ?? ERRORS[status >= 500 ? 500 : 400]!;
}

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function openAiErrorBody(status: number, message?: string, details: { param?: string | null; code?: string | null } = {}): unknown {
  const defaults = errorDefaults(status);
  return {
    error: {
      message: message ?? defaults.message,
      type: defaults.type,
      param: details.param ?? null,
      code: details.code === undefined ? defaults.code : details.code,
    },
  };
}
