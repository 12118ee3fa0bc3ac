import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { type AgentPermissions, type ConfirmationRequest, mayAskForConfirmation } from '@nexus/core';

/** The `tools/call` being served: who to ask and what to tie the question to. */
export interface ToolCallScope {
  server: Server;
  requestId: RequestId;
  signal: AbortSignal;
}

const currentCall = new AsyncLocalStorage<ToolCallScope>();

/**
 * Runs `work` as part of the `tools/call` described by `scope`, so confirmations reach its client.
 * The scope is entered only when the policy can ask at all (or there is no policy): on Node 20 an
 * AsyncLocalStorage in use slows every promise of the process a little.
 */
export function runInToolCall<T>(scope: ToolCallScope, permissions: AgentPermissions | undefined, work: () => Promise<T>): Promise<T> {
  return !permissions || mayAskForConfirmation(permissions) ? currentCall.run(scope, work) : work();
}

/** How long the user has to answer a confirmation before it counts as refused. */
const CONFIRMATION_TIMEOUT_MS = 10 * 60_000;

function describe({ tool, action, detail }: ConfirmationRequest): string {
  return `Allow ${tool} to ${action}?${detail ? `\n\n${detail}` : ''}`;
}

/**
 * A `confirm` service for registries served by {@link createMcpServer}: asks the user of the
 * client that made the current `tools/call` through MCP elicitation (a form with one `approve`
 * checkbox). Approved only when the user accepts with `approve` ticked. Refuses — without asking —
 * when the client does not support elicitation, when called outside a `tools/call`, when the call
 * is cancelled, or when no answer comes within ten minutes.
 *
 * ```ts
 * services.register('confirm', confirmWithElicitation);
 * ```
 */
export async function confirmWithElicitation(request: ConfirmationRequest): Promise<boolean> {
  const scope = currentCall.getStore();
  if (!scope?.server.getClientCapabilities()?.elicitation?.form) return false;
  try {
    const answer = await scope.server.elicitInput(
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
      { relatedRequestId: scope.requestId, signal: scope.signal, timeout: CONFIRMATION_TIMEOUT_MS },
    );
    return answer.action === 'accept' && answer.content?.approve === true;
  } catch {
    return false;
  }
}
