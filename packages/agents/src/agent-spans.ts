import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('@nexus/agents');

/** Runs `work` as the active span `name`, ended with its outcome: a thrown error marks the span failed. */
async function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** What names a turn's span. */
export interface TurnSpanInfo {
  readonly requestId: string;
  readonly agentId?: string;
  readonly ancestry?: readonly string[];
  /** The model's id (`gen_ai.request.model`). */
  readonly model: string;
}

/**
 * Runs a turn inside its span (GenAI semantic conventions: `invoke_agent [<agent id>]`), so the
 * spans of its model calls and tool calls sit under it; the span says how the turn ended.
 */
export function inTurnSpan<T extends { status: string }>(info: TurnSpanInfo, work: () => Promise<T>): Promise<T> {
  const { requestId, agentId, ancestry, model } = info;
  const attributes: Attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.request.model': model,
    'nexus.request_id': requestId,
    ...(agentId ? { 'gen_ai.agent.id': agentId, 'gen_ai.agent.name': agentId } : {}),
    ...(ancestry?.length ? { 'nexus.agent.ancestry': [...ancestry] } : {}),
  };
  return inSpan(agentId ? `invoke_agent ${agentId}` : 'invoke_agent', SpanKind.INTERNAL, attributes, async (span) => {
    const result = await work();
    span.setAttribute('nexus.turn.status', result.status);
    return result;
  });
}

/** A model call's usage, as its span reports it. */
export interface ModelCallUsage {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
}

/**
 * Runs one model call inside its span (GenAI semantic conventions: `chat <model>`, a client span),
 * with the provider's usage once it is known.
 */
export function inModelCallSpan<T extends { usage: ModelCallUsage | undefined }>(
  model: { readonly modelId: string; readonly provider: string },
  work: () => Promise<T>,
): Promise<T> {
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': model.provider.split('.')[0] ?? model.provider,
    'gen_ai.request.model': model.modelId,
  };
  return inSpan(`chat ${model.modelId}`, SpanKind.CLIENT, attributes, async (span) => {
    const outcome = await work();
    const { inputTokens, outputTokens } = outcome.usage ?? {};
    if (inputTokens !== undefined) span.setAttribute('gen_ai.usage.input_tokens', inputTokens);
    if (outputTokens !== undefined) span.setAttribute('gen_ai.usage.output_tokens', outputTokens);
    return outcome;
  });
}
