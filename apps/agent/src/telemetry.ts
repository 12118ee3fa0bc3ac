import { createRequire } from 'node:module';
import { context, trace } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { resourceFromAttributes } from '@opentelemetry/resources';
import type { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/** Where `nexus` sends its traces: an OTLP/HTTP collector. */
export interface TelemetrySettings {
  otlp?: {
    /** The collector's base URL; spans go to `<endpoint>/v1/traces` as OTLP JSON. */
    endpoint: string;
    /** Sent with every export (an API key of the collector). */
    headers?: Record<string, string>;
  };
}

// Loaded only when telemetry is configured, and synchronously, so that the first call's span is
// already exported: most runs have no collector, and the SDK is not small.
const load = createRequire(import.meta.url);

let provider: TracerProvider | undefined;

/**
 * Registers an OpenTelemetry SDK that exports the spans of this process (the registry's
 * `execute_tool` spans, and whatever else uses `@opentelemetry/api`) to `telemetry.otlp`, once per
 * process; nothing when no collector is configured. Spans are sent in batches, and the rest at exit.
 */
export function startTelemetry(settings: TelemetrySettings): void {
  if (provider || !settings.otlp) return;
  const sdk = load('@opentelemetry/sdk-trace') as { TracerProvider: typeof TracerProvider; BatchSpanProcessor: typeof BatchSpanProcessor };
  const { OTLPTraceExporter: Exporter } = load('@opentelemetry/exporter-trace-otlp-http') as {
    OTLPTraceExporter: typeof OTLPTraceExporter;
  };
  const { AsyncLocalStorageContextManager: ContextManager } = load('@opentelemetry/context-async-hooks') as {
    AsyncLocalStorageContextManager: typeof AsyncLocalStorageContextManager;
  };
  const { resourceFromAttributes: resource } = load('@opentelemetry/resources') as {
    resourceFromAttributes: typeof resourceFromAttributes;
  };
  const { endpoint, headers = {} } = settings.otlp;
  const exporter = new Exporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces`, headers });
  provider = new sdk.TracerProvider({
    resource: resource({ 'service.name': 'nexus' }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  // Through the ES module of the API the packages import: their tracers, made before this, follow it.
  context.setGlobalContextManager(new ContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  process.once('beforeExit', () => void flushTelemetry());
}

/** Sends the spans still queued. */
export async function flushTelemetry(): Promise<void> {
  await provider?.forceFlush();
}
