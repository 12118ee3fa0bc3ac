import { redactSecrets, type ServiceContainer, type ToolResult } from '@nexus/core';
import { context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { CallTrail } from './audit-record.js';
import { cachedPolicyDigest, isolationOf } from './audit-record.js';

const TRACER_NAME = '@nexus/registry';
const tracer = trace.getTracer(TRACER_NAME);

/**
 * Whether an OpenTelemetry SDK registered a tracer provider: the API's global provider is then
 * another than its own proxy, or the proxy has a delegate. The proxy is known by its method, as the
 * API deprecates its class as an export. Asked per call, as one may be registered later; far
 * cheaper than a no-op span (the API's context look-up, a span object).
 */
function tracerRegistered(): boolean {
  const provider = trace.getTracerProvider();
  if (!('getDelegateTracer' in provider) || typeof provider.getDelegateTracer !== 'function') return true;
  return provider.getDelegateTracer(TRACER_NAME) !== undefined;
}

/**
 * Starts the span of a tool call (GenAI semantic conventions: `execute_tool <tool>`), a child of
 * the caller's active span; `undefined` when the span would record nothing (no OpenTelemetry SDK
 * registered, or sampled out), and the pipeline skips the rest.
 */
export function startToolSpan(tool: string, toolCallId: string | undefined): Span | undefined {
  if (!tracerRegistered()) return undefined;
  const span = tracer.startSpan(`execute_tool ${tool}`);
  if (!span.isRecording()) return undefined;
  span.setAttributes({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'gen_ai.tool.type': 'function',
    ...(toolCallId ? { 'gen_ai.tool.call.id': toolCallId } : {}),
  });
  return span;
}

/** Runs `work` with `span` as the active span, so that the spans the skill makes sit under it. */
export function withinSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  return context.with(trace.setSpan(context.active(), span), work);
}

/** Ends the span with what decided the call (Nexus attributes), and the error's kind and message on failure. */
export function endToolSpan(span: Span, trail: CallTrail, result: ToolResult, services: ServiceContainer): void {
  span.setAttributes({
    'nexus.decision': trail.decision,
    'nexus.decided_by': trail.decidedBy,
    'nexus.policy_digest': cachedPolicyDigest(services),
    ...(trail.packageDigest ? { 'nexus.package_digest': trail.packageDigest } : {}),
    ...(isolationOf(result) ? { 'nexus.isolation': isolationOf(result) } : {}),
    ...(trail.confirmation ? { 'nexus.confirmation.given': trail.confirmation.given, 'nexus.confirmation.by': trail.confirmation.by } : {}),
  });
  if (!result.success) {
    span.setAttribute('error.type', result.kind ?? 'execution_failed');
    span.setStatus({ code: SpanStatusCode.ERROR, message: redactSecrets(result.error) as string });
  }
  span.end();
}
