import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/** A query on DBOS's own tables (schema `dbos`): its journal, queues and messages. */
const ENGINE_QUERY = /"?dbos"?\./;

/**
 * Passes spans on to `next` except those of queries on the workflow engine's tables. A flow run's trace
 * would otherwise hold one such query per step recorded and per poll of a queued activity's result, several a
 * second while a render runs: hundreds of spans that say only that DBOS works. The steps themselves stay.
 */
export class EngineQueryFilter implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
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
