import { DBOS } from '@dbos-inc/dbos-sdk';
import { activeSpan, inSpan, inTraceOf } from '../telemetry/trace-context';

/**
 * Runs a queued activity inside a span of the trace of the flow run that queued it. DBOS's own span
 * of the run (a queued run's is a root of its own) is linked; the activity's step is a child of this span.
 * Only spans: what the run records and replays is unchanged.
 */
export function inActivitySpan<T>(
  activity: string,
  traceparent: string | undefined,
  body: () => Promise<T>,
): Promise<T> {
  const engineSpan = activeSpan();
  const attributes = { 'workflow.id': DBOS.workflowID ?? '' };
  const options = { kind: 'consumer', attributes, linkedTo: engineSpan } as const;
  return inTraceOf(traceparent, () => inSpan(`activity ${activity}`, options, body));
}
