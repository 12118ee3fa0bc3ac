import type { Notification } from '@modelcontextprotocol/server';
import type { SkillProgress } from '@nexus/core';

/** The part of the SDK's request-handler `ctx.mcpReq` that progress forwarding needs. */
export interface ProgressChannel {
  signal: AbortSignal;
  notify(notification: Notification): Promise<void>;
}

/**
 * Builds a skill's `onProgress` that sends MCP `notifications/progress` for the request that
 * asked for them (`progressToken`), or `undefined` when the client sent no token. MCP requires
 * `progress` to grow with every notification, so a report that does not advance `current` is
 * sent as the previous value plus one.
 */
export function forwardProgress(
  progressToken: string | number | undefined,
  channel: ProgressChannel,
): ((progress: SkillProgress) => void) | undefined {
  if (progressToken === undefined) return undefined;
  let last = 0;
  return ({ message, current, total }) => {
    if (channel.signal.aborted) return;
    last = current !== undefined && current > last ? current : last + 1;
    const params: { progressToken: string | number; progress: number; total?: number; message?: string } = {
      progressToken,
      progress: last,
    };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    channel.notify({ method: 'notifications/progress', params }).catch(() => {
      // The client went away; the call's signal ends the skill.
    });
  };
}
