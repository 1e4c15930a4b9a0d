/**
 * A durable process as the rest of the service knows it: its name (also Temporal's workflow type),
 * how a run's workflow id follows from its input, the signals it waits for with their payloads, and
 * the queue its runs start on. Plain data, so the flow code (workflows/), both engines and the
 * services that start flows share one typed declaration per process.
 */
import type { FlowTenant } from './flow-tenant';

/**
 * Where a run waits before it starts: `builds` and `campaigns` are queues partitioned by tenant,
 * so one shop's burst holds only its share of the slots; without one a run starts at once.
 */
export type FlowQueueClass = 'builds' | 'campaigns';

/** A signal a flow waits for, and the payload it carries (a type only: signals are JSON). */
export interface SignalContract<Payload> {
  readonly name: string;
  /** Never set: carries the payload type to `engine.signal` and `waitForSignal`. */
  readonly payloadType?: Payload;
}

export interface FlowContract<Input, Output = unknown> {
  readonly name: string;
  /**
   * A run's workflow id: a business key, so starting the same work twice is one run. A flow's ids
   * and name never change while runs of it may be under way (DBOS and Temporal find runs by them).
   */
  readonly workflowId: (input: Input, tenant: FlowTenant) => string;
  readonly queue?: FlowQueueClass;
  /** Never set: carries the output type. */
  readonly outputType?: Output;
}

export function defineFlow<Input, Output>(contract: {
  name: string;
  workflowId: (input: Input, tenant: FlowTenant) => string;
  queue?: FlowQueueClass;
}): FlowContract<Input, Output> {
  return contract;
}

export function defineSignal<Payload>(name: string): SignalContract<Payload> {
  return { name };
}
