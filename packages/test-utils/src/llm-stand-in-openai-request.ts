import { type ApiErrorResponse, arrayOf, isRecord, type LlmRequestBody } from './llm-stand-in-dialect.js';
import { openAiErrorBody } from './llm-stand-in-openai-error.js';
import { findOpenAiStrictSchemaProblems } from './llm-stand-in-strict-schema.js';

function badRequest(message: string, param: string, code: string | null = null): ApiErrorResponse {
  return { status: 400, body: openAiErrorBody(400, message, { param, code }) };
}

/** Keywords OpenAI refuses at the root of any function's parameters, strict or not. */
const ROOT_KEYWORDS = ['oneOf', 'anyOf', 'allOf', 'enum', 'not'];

/** The first function whose parameters are not an object root, or combine schemas at the top level. */
function findToolRootError(tools: unknown[]): ApiErrorResponse | undefined {
  for (const [index, tool] of tools.entries()) {
    const definition = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    const parameters = definition?.parameters;
    if (parameters === undefined) continue;
    if (!isRecord(parameters) || parameters.type !== 'object' || ROOT_KEYWORDS.some((keyword) => keyword in parameters)) {
      return badRequest(
        `Invalid schema for function '${String(definition?.name)}': schema must have type 'object' and not have ` +
          `${ROOT_KEYWORDS.map((keyword) => `'${keyword}'`).join('/')} at the top level.`,
        `tools[${index}].function.parameters`,
        'invalid_function_parameters',
      );
    }
  }
  return undefined;
}

/** The first tool marked `strict` whose parameters break OpenAI's strict-mode rules. */
function findStrictToolError(tools: unknown[]): ApiErrorResponse | undefined {
  for (const [index, tool] of tools.entries()) {
    const definition = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    if (definition?.strict !== true) continue;
    const [problem] = findOpenAiStrictSchemaProblems(definition.parameters);
    if (problem) {
      return badRequest(
        `Invalid schema for function '${String(definition.name)}': ${problem}`,
        `tools[${index}].function.parameters`,
        'invalid_function_parameters',
      );
    }
  }
  return undefined;
}

/** Tool messages must answer every call of the assistant message right before them, and only those. */
function findToolPairingError(messages: unknown[]): ApiErrorResponse | undefined {
  let open: { index: number; ids: Set<string> } | undefined;
  const unanswered = () =>
    badRequest(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
        `The following tool_call_ids did not have response messages: ${[...(open?.ids ?? [])].join(', ')}`,
      `messages.[${open?.index}].role`,
    );
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    if (message.role === 'tool') {
      if (!open?.ids.delete(String(message.tool_call_id))) {
        return badRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
      continue;
    }
    if (open && open.ids.size > 0) return unanswered();
    const calls = arrayOf(message.tool_calls);
    open =
      message.role === 'assistant' && calls.length > 0
        ? { index, ids: new Set(calls.map((call) => String(isRecord(call) ? call.id : undefined))) }
        : undefined;
  }
  return open && open.ids.size > 0 ? unanswered() : undefined;
}

/** The 400 OpenAI's Chat Completions endpoint gives this body before running a model, if any. */
export function findOpenAiRequestError(body: LlmRequestBody): ApiErrorResponse | undefined {
  if (!Array.isArray(body.messages)) {
    return badRequest("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  }
  const tools = arrayOf(body.tools);
  return findToolRootError(tools) ?? findStrictToolError(tools) ?? findToolPairingError(body.messages);
}
