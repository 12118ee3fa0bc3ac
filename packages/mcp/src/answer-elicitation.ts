import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { ConfirmFunction } from '@nexus/core';

/** Who asks, for the question put to the caller: the Nexus tool that made the call, and the server. */
export interface ElicitationAsker {
  tool: string;
  server: string;
}

type FormSchema = { properties?: Record<string, { type?: string; default?: unknown }>; required?: string[] };

/**
 * What an approval says in the form: each field's default, `true` for a yes/no field; `undefined`
 * when the form asks for something a yes or no cannot give (a required text without a default).
 */
function approvedContent(schema: FormSchema | undefined): Record<string, unknown> | undefined {
  const content: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) content[field] = property.default;
    else if (property.type === 'boolean') content[field] = true;
    else if (schema?.required?.includes(field)) return undefined;
  }
  return content;
}

/**
 * An imported server's question during a call (`elicitation/create`, or an `input_required`
 * elicitation), put to whoever made the call through Nexus's own confirmation path — `ask`, the
 * call's `confirm` or else the `confirm` service — and never answered by Nexus itself: without
 * `ask`, for a URL, or for a form asking more than a yes or no can give, it is declined without
 * asking. An approval accepts with each field's default and `true` for yes/no fields.
 */
export async function answerElicitation(
  params: ElicitRequestParams,
  ask: ConfirmFunction | undefined,
  asker: ElicitationAsker,
): Promise<ElicitResult> {
  if (ask === undefined || params.mode === 'url') return { action: 'decline' };
  const content = approvedContent(params.requestedSchema as FormSchema | undefined);
  if (content === undefined) return { action: 'decline' };
  const approved = await ask({ tool: asker.tool, action: `answer the MCP server "${asker.server}": ${params.message}` });
  return approved === true ? { action: 'accept', content: content as ElicitResult['content'] & object } : { action: 'decline' };
}
