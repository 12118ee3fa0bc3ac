import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/** The spans made through OpenTelemetry's global API while it is started, kept in memory. */
export interface SpanRecorder {
  /** The finished spans; `reset()` empties it. */
  readonly exporter: InMemorySpanExporter;
  /** Installs the recorder as the global tracer provider, with an async-hooks context manager (for `beforeAll`). */
  start(): void;
  /** Removes both again (for `afterAll`). */
  stop(): void;
  /** Waits until every ended span is in `exporter`. */
  flush(): Promise<void>;
}

/** A {@link SpanRecorder}: a test file starts it before its tests and stops it after them. */
export function spanRecorder(): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return {
    exporter,
    start() {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      trace.setGlobalTracerProvider(provider);
    },
    stop() {
      trace.disable();
      context.disable();
    },
    flush: () => provider.forceFlush(),
  };
}
