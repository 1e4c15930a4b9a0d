import { context, propagation, trace } from '@opentelemetry/api';
import type { Config } from '../config';
import { EngineSpanFilter } from './engine-span-filter';
import { withoutLiterals } from './query-text';

export interface Tracing {
  /** Sends the spans still buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/** Requests nobody needs a trace of: probes and scrapes every few seconds. */
const UNTRACED_PATHS = /^\/(healthz|readyz|metrics)(\/|\?|$)/;

/**
 * Registers OpenTelemetry's SDK when an OTLP endpoint is configured, before the service's modules load: the pg and
 * graphql instrumentations patch those packages as they are required. Without an endpoint nothing is imported or
 * patched, and the API stays the no-op it is. Spans go over OTLP/HTTP as JSON, in batches.
 */
export async function startTracing(config: Pick<Config, 'tracing' | 'role'>): Promise<Tracing | undefined> {
  if (!config.tracing) return undefined;
  const [sdk, { OTLPTraceExporter }, { resourceFromAttributes }, { W3CTraceContextPropagator }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
  ]);
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const exporter = new OTLPTraceExporter({ url: config.tracing.tracesUrl });
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.tracing.serviceName, 'photobook.role': config.role }),
    spanProcessors: [new EngineSpanFilter(new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: 2_000 }))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);

  const [{ FastifyOtelInstrumentation }, { PgInstrumentation }, { GraphQLInstrumentation }] = await Promise.all([
    import('@fastify/otel'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-graphql'),
  ]);
  const instrumentations = [
    // Every Fastify instance created from now on gets the plugin: it continues a caller's `traceparent`.
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      // The request and its handler; a span per lifecycle hook (authentication, rate limits, ...) is noise.
      instrumentHooks: false,
      ignorePaths: ({ url }) => UNTRACED_PATHS.test(url),
      requestHook: (span, request) => span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`),
      // Fastify names a handler after its plugin, which may be an anonymous function's source.
      lifecycleHook: (span, { hookName, request }) => {
        if (hookName === 'handler') span.updateName(`handler ${request.routeOptions.url ?? 'unmatched'}`);
      },
    }),
    // Only queries made for something traced: the engines poll their queues several times a second.
    new PgInstrumentation({
      requireParentSpan: true,
      requestHook: (span, { query }) => span.setAttribute('db.query.text', withoutLiterals(query.text)),
    }),
    new GraphQLInstrumentation({ mergeItems: true, ignoreTrivialResolveSpans: true }),
  ];
  return {
    async shutdown() {
      for (const instrumentation of instrumentations) instrumentation.disable();
      await provider.shutdown();
    },
  };
}
