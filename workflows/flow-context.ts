/**
 * The small world a flow lives in. Flows are deterministic functions of their input and of what
 * this context returns, so the same flow runs under Temporal (workflows/temporal/) and under the
 * embedded runner (src/engine/). Nothing in workflows/ may import Node built-ins or src/ runtime code.
 */

import type { ActivityPolicy } from '../src/domain/retry-policies';

/** Timeout and retry policy of one activity, in milliseconds. */
export type ActivityOptions = ActivityPolicy;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActivityFunctions = Record<string, (...args: any[]) => Promise<any>>;

export interface FlowContext<A extends ActivityFunctions> {
  /** Activities run outside the flow, at least once, with the flow's options; results are durable. */
  activities: A;
  /** A durable timer: survives a restart of the process running the flow. */
  sleep(ms: number): Promise<void>;
  /** The payload of the next signal `name` sent to this flow, or undefined after `timeoutMs`. */
  waitForSignal<T>(name: string, timeoutMs?: number): Promise<T | undefined>;
  /** The flow's clock (replay-safe). */
  now(): number;
}

export interface FlowDefinition<Input, Output, A extends ActivityFunctions> {
  /** Also the Temporal workflow type name. */
  name: string;
  /** Timeouts and retries, per activity, grouped at the top of each flow file. */
  activityOptions: { [K in keyof A]: ActivityOptions };
  run(ctx: FlowContext<A>, input: Input): Promise<Output>;
}
