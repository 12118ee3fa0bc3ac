import { anthropicErrorBody } from './llm-stand-in-anthropic-error.js';
import { type ApiErrorResponse, arrayOf, isRecord, type LlmRequestBody } from './llm-stand-in-dialect.js';

function badRequest(message: string): ApiErrorResponse {
  return { status: 400, body: anthropicErrorBody(400, message) };
}

/** Anthropic's rules for a custom tool's `input_schema`: an object root without top-level composition. */
function findToolSchemaError(tools: unknown[]): ApiErrorResponse | undefined {
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool) || (tool.type !== undefined && tool.type !== 'custom')) continue;
    const schema = tool.input_schema;
    if (!isRecord(schema)) return badRequest(`tools.${index}.custom.input_schema: Field required`);
    if (schema.type !== 'object') return badRequest(`tools.${index}.custom.input_schema.type: Input should be 'object'`);
    if (['oneOf', 'anyOf', 'allOf'].some((keyword) => keyword in schema)) {
      return badRequest(`tools.${index}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`);
    }
  }
  return undefined;
}

/** The content blocks of `type` in a message (string content has none). */
function blocksOf(message: unknown, type: string): Array<Record<string, unknown>> {
  const content = isRecord(message) ? arrayOf(message.content) : [];
  return content.filter((block): block is Record<string, unknown> => isRecord(block) && block.type === type);
}

/** Every `tool_use` needs a `tool_result` in the very next message, and every `tool_result` a `tool_use` right before. */
function findToolPairingError(messages: unknown[]): ApiErrorResponse | undefined {
  for (const [index, message] of messages.entries()) {
    const calledBefore = new Set(blocksOf(messages[index - 1], 'tool_use').map((block) => block.id));
    const content = isRecord(message) ? arrayOf(message.content) : [];
    for (const [position, block] of content.entries()) {
      if (isRecord(block) && block.type === 'tool_result' && !calledBefore.has(block.tool_use_id)) {
        return badRequest(
          `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
        );
      }
    }
    const answered = new Set(blocksOf(messages[index + 1], 'tool_result').map((block) => block.tool_use_id));
    const unanswered = blocksOf(message, 'tool_use').filter((block) => !answered.has(block.id));
    if (unanswered.length > 0) {
      return badRequest(
        `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.map((block) => String(block.id)).join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      );
    }
  }
  return undefined;
}

/** The 400 Anthropic's Messages endpoint gives this body before running a model, if any. */
export function findAnthropicRequestError(body: LlmRequestBody): ApiErrorResponse | undefined {
  if (typeof body.max_tokens !== 'number') return badRequest('max_tokens: Field required');
  if (!Array.isArray(body.messages)) return badRequest('messages: Field required');
  return findToolSchemaError(arrayOf(body.tools)) ?? findToolPairingError(body.messages);
}
