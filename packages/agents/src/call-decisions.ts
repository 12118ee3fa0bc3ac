import type { ServiceContainer } from '@nexus/core';
import type { AuditRecord, AuditSink } from '@nexus/registry';

/** The policy decision of one call, as `watch`'s `tool_result` tells it. */
export interface CallDecision {
  readonly decision: AuditRecord['decision'];
  readonly decided_by: string;
  readonly reason?: string;
  readonly confirmation?: AuditRecord['confirmation'];
}

/** How many decisions wait for their results at most (a call's record and result come together). */
const KEPT = 64;

/**
 * The decisions of an agent's calls, from its registry's audit records (which carry the call's
 * id), until the loop reports each call's result.
 */
export class CallDecisions {
  readonly #records: AuditRecord[] = [];

  /** The audit sink that notes each record. */
  readonly sink: AuditSink = (record) => {
    this.#records.push(record);
    if (this.#records.length > KEPT) this.#records.shift();
  };

  /** The decision of the call with this id, forgotten once taken. */
  take(toolCallId: string): CallDecision | undefined {
    const index = this.#records.findIndex((record) => record.toolCallId === toolCallId);
    if (index < 0) return undefined;
    const [record] = this.#records.splice(index, 1) as [AuditRecord];
    return {
      decision: record.decision,
      decided_by: record.decidedBy,
      ...(record.reason ? { reason: record.reason } : {}),
      ...(record.confirmation ? { confirmation: record.confirmation } : {}),
    };
  }
}

/** `services` with `decisions.sink` added to its `callHooks` service's audit sinks (those it has stay). */
export function withCallDecisions(services: ServiceContainer, decisions: CallDecisions): ServiceContainer {
  const hooks = services.get('callHooks');
  const sinks = [hooks?.onAudit ?? []].flat();
  return services.register('callHooks', { ...hooks, onAudit: [...sinks, decisions.sink] });
}
