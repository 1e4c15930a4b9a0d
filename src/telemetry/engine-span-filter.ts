import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/** A query on DBOS's own tables (schema `dbos`): its journal, queues and messages. */
const ENGINE_QUERY = /"?dbos"?\./;
/** The span DBOS starts at launch to see whether a context manager is registered. */
const ENGINE_PROBE_SCOPE = 'otel-bootstrap-check';

/**
 * Passes spans on to `next` except the workflow engine's housekeeping: queries on its tables, and its probe at
 * launch. A flow run's trace would otherwise hold one such query per step recorded and per poll of a queued
 * activity's result, several a second while a render runs: hundreds of spans that say only that DBOS works.
 * DBOS's spans of runs and steps stay.
 */
export class EngineSpanFilter implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (span.instrumentationScope.name === ENGINE_PROBE_SCOPE) return;
    const query = span.attributes['db.query.text'];
    if (typeof query === 'string' && ENGINE_QUERY.test(query)) return;
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
