/**
 * The small world a flow lives in. Flows are deterministic functions of their input and of what
 * this context returns, so the same flow runs under Temporal (workflows/temporal/) and under the
 * embedded runner (src/engine/). Nothing in workflows/ may import Node built-ins or src/ runtime code.
 */

import type { ActivityPolicy } from '../src/domain/retry-policies';
import type { FlowContract, SignalContract } from '../src/domain/flows';

/** Timeout and retry policy of one activity, in milliseconds. */
export type ActivityOptions = ActivityPolicy;

// biome-ignore lint/suspicious/noExplicitAny: activities of every signature, and flows of every contract, held side by side
export type ActivityFunctions = Record<string, (...args: any[]) => Promise<any>>;

export interface FlowContext<A extends ActivityFunctions> {
  /** Activities run outside the flow, at least once, with the flow's options; results are durable. */
  activities: A;
  /** A durable timer: survives a restart of the process running the flow. */
  sleep(ms: number): Promise<void>;
  /** The payload of the next `signal` sent to this flow, or undefined after `timeoutMs`. */
  waitForSignal<T>(signal: SignalContract<T>, timeoutMs?: number): Promise<T | undefined>;
  /** The flow's clock (replay-safe). */
  now(): number;
}

// biome-ignore lint/suspicious/noExplicitAny: activities of every signature, and flows of every contract, held side by side
type AnyContract = FlowContract<any, any>;
export type InputOf<C extends AnyContract> = C extends FlowContract<infer I, unknown> ? I : never;
export type OutputOf<C extends AnyContract> = NonNullable<C['outputType']>;

/** A flow's code for contract `C`, with the activities `A` it calls. */
export interface FlowDefinition<C extends AnyContract, A extends ActivityFunctions> {
  /** The flow's name (also the Temporal workflow type), ids, input, output and queue (src/domain/flows). */
  contract: C;
  /** Timeouts, retries and queues, per activity, grouped at the top of each flow file. */
  activityOptions: { [K in keyof A]: ActivityOptions };
  run(ctx: FlowContext<A>, input: InputOf<C>): Promise<OutputOf<C>>;
}

/** Any flow, as the engines hold them: each is checked against its contract where it is written. */
// biome-ignore lint/suspicious/noExplicitAny: activities of every signature, and flows of every contract, held side by side
export type AnyFlowDefinition = FlowDefinition<AnyContract, any>;
