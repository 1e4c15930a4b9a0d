import type { FlowTenant } from '../domain/flows';
import { currentTraceparent } from '../telemetry/trace-context';
import { WorkflowNotFoundError, type WorkflowOutcome } from './workflow-engine';

/*
 * A run as the embedded engine records it (the DBOS workflow's argument), how a signal reaches it
 * and how its outcome is read back: the same in the process that runs flows (DbosEngine) and in an
 * API process that only enqueues (DbosClientEngine).
 */

/**
 * What a flow's workflow receives: the caller's input, when the run was started (its clock),
 * whose work it is (absent in runs recorded before runs had tenants) and the trace of the request
 * that started it (W3C `traceparent`; absent when not tracing and in runs recorded before).
 */
export interface FlowRun {
  input: unknown;
  startedAt: number;
  tenant?: FlowTenant;
  traceparent?: string;
}

/**
 * The run's `traceparent` field, when tracing: DBOS's queues do not carry trace context, so a run
 * taken from a queue by another process continues the starter's trace from it.
 */
export function startersTrace(): Pick<FlowRun, 'traceparent'> {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}

export const UNFINISHED = ['PENDING', 'ENQUEUED', 'DELAYED'];

/**
 * Signal `name` with `payload` is the DBOS message `{ payload }` on topic `name` (wrapped, so a
 * signal without payload is a message too: DBOS answers a timed-out recv with null).
 */
export function signalMessage(payload: unknown): { payload?: unknown } {
  return { payload };
}

/**
 * Polls a run's status until it finished or `timeoutMs` passed: the same answer whether DBOS runs
 * in this process or is reached through a DBOSClient.
 */
export async function pollOutcome(
  statusOf: (workflowId: string) => Promise<{ status: string; output?: unknown; error?: unknown } | null | undefined>,
  workflowId: string,
  timeoutMs: number,
): Promise<WorkflowOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await statusOf(workflowId);
    if (status?.status === 'SUCCESS') return { status: 'completed', result: status.output ?? undefined };
    if (status && !UNFINISHED.includes(status.status))
      return { status: 'failed', error: describeError(status.error ?? new Error(status.status)) };
    if (Date.now() >= deadline) {
      if (!status) throw new WorkflowNotFoundError(workflowId);
      return { status: 'running' };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))));
  }
}

function describeError(error: unknown): string {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : String(error)}`;
}
