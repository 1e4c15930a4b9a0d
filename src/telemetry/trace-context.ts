import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/**
 * The service's side of tracing, through OpenTelemetry's API alone. Until start-tracing.ts registers an SDK, the API
 * is a no-op: no span is recorded, nothing is injected or extracted, and these functions cost a few calls.
 */

const tracer = () => trace.getTracer('photobook-service');

/** The W3C `traceparent` of the active span, to carry where context cannot follow (a queue, an outbox row). */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Headers that continue the active trace at the receiver (`traceparent`, `tracestate`); empty when not tracing. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Runs `work` as part of the trace `traceparent` names (carried through a queue); as it is when there is none. */
export function inTraceOf<T>(traceparent: string | undefined, work: () => T): T {
  if (!traceparent) return work();
  return context.with(propagation.extract(context.active(), { traceparent }), work);
}

interface SpanOptions {
  kind?: 'client' | 'internal' | 'consumer';
  attributes?: Attributes;
  /** A span this one follows from without being its child (the engine's own span of a run). */
  linkedTo?: Span;
}

const KINDS = { client: SpanKind.CLIENT, internal: SpanKind.INTERNAL, consumer: SpanKind.CONSUMER };

/** Runs `work` inside a new child span of the active one; a thrown error marks the span failed and is rethrown. */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const link = options.linkedTo?.spanContext();
  const links = link && trace.isSpanContextValid(link) ? [{ context: link }] : [];
  const spanOptions = { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes, links };
  return tracer().startActiveSpan(name, spanOptions, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The span active here, if any (the engine's span of the run being executed). */
export function activeSpan(): Span | undefined {
  return trace.getActiveSpan();
}
