import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmationRequest, ConfirmFunction } from '@nexus/core';

/** The `tools/call` a confirmation belongs to: the client's request id and its cancellation. */
export interface ToolCallRequest {
  requestId: RequestId;
  signal: AbortSignal;
}

/** How long the user has to answer a confirmation before it counts as refused. */
const CONFIRMATION_TIMEOUT_MS = 10 * 60_000;

function describe({ tool, action, detail }: ConfirmationRequest): string {
  return `Allow ${tool} to ${action}?${detail ? `\n\n${detail}` : ''}`;
}

/**
 * A way to ask for one `tools/call`: the user of the client that made it, through MCP elicitation
 * (a form with one `approve` checkbox, tied to the request). Approved only when the user accepts
 * with `approve` ticked; refused when the call is cancelled, the client fails, or no answer comes
 * within ten minutes. `undefined` when the client does not support form elicitation, so the
 * registry falls back to its `confirm` service. {@link createMcpServer} passes it as the call's
 * `confirm`; each session asks its own client.
 */
export function confirmWithElicitation(server: Server, call: ToolCallRequest): ConfirmFunction | undefined {
  if (!server.getClientCapabilities()?.elicitation?.form) return undefined;
  return async (request) => {
    try {
      const answer = await server.elicitInput(
        {
          mode: 'form',
          message: describe(request),
          requestedSchema: {
            type: 'object',
            properties: {
              approve: { type: 'boolean', title: 'Approve', description: `Tick to let ${request.tool} go ahead.`, default: false },
            },
            required: ['approve'],
          },
        },
        { relatedRequestId: call.requestId, signal: call.signal, timeout: CONFIRMATION_TIMEOUT_MS },
      );
      return answer.action === 'accept' && answer.content?.approve === true;
    } catch {
      return false;
    }
  };
}
