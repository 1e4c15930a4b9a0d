/**
 * Runs a shared flow (workflows/*.ts) as a Temporal workflow. Only @temporalio/workflow and
 * workflows/ may be imported here: this file is bundled into Temporal's deterministic sandbox.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  ContinueAsNew,
  TemporalFailure,
  TimeoutFailure,
  WorkflowError,
  condition,
  defineSignal,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type {
  ActivityFunctions,
  ActivityOptions,
  FlowContext,
  FlowDefinition,
  InputOf,
  OutputOf,
} from '../flow-context';
import type { FlowContract, SignalContract } from '../../src/domain/flows';

// biome-ignore lint/suspicious/noExplicitAny: runs a flow of any contract
export async function runFlowOnTemporal<C extends FlowContract<any, any>, A extends ActivityFunctions>(
  flow: FlowDefinition<C, A>,
  input: InputOf<C>,
): Promise<OutputOf<C>> {
  const activities: ActivityFunctions = {};
  for (const name of Object.keys(flow.activityOptions)) {
    const options = (flow.activityOptions as Record<string, ActivityOptions>)[name];
    const activity = proxyActivities<ActivityFunctions>({
      startToCloseTimeout: options.startToCloseTimeoutMs,
      retry: {
        maximumAttempts: options.retry.maximumAttempts,
        initialInterval: options.retry.initialIntervalMs,
        backoffCoefficient: options.retry.backoffCoefficient,
        maximumInterval: options.retry.maximumIntervalMs,
        nonRetryableErrorTypes: options.retry.nonRetryableErrorTypes,
      },
    })[name];
    activities[name] = async (...args: unknown[]) => {
      try {
        return await activity(...args);
      } catch (error) {
        throw asFlowError(error);
      }
    };
  }

  // Signals are queued per name from the first wait on; Temporal buffers signals that arrive
  // before a handler exists and hands them over when it is set.
  const queues = new Map<string, unknown[]>();
  const queueOf = (name: string): unknown[] => {
    let queue = queues.get(name);
    if (!queue) {
      const created: unknown[] = [];
      queues.set(name, created);
      setHandler(defineSignal<[unknown?]>(name), (payload?: unknown) => {
        created.push(payload);
      });
      queue = created;
    }
    return queue;
  };

  const context: FlowContext<A> = {
    activities: activities as A,
    sleep: (ms) => sleep(ms),
    async waitForSignal<T>(signal: SignalContract<T>, timeoutMs?: number): Promise<T | undefined> {
      const queue = queueOf(signal.name);
      if (timeoutMs === undefined) await condition(() => queue.length > 0);
      else if (!(await condition(() => queue.length > 0, timeoutMs))) return undefined;
      return queue.shift() as T;
    },
    // Date is deterministic inside Temporal's workflow sandbox (the workflow task's time).
    now: () => Date.now(),
  };

  try {
    return await flow.run(context, input);
  } catch (error) {
    throw asWorkflowFailure(error);
  }
}

/**
 * What a flow catches when an activity failed for good: an Error with the activity error's name
 * and message, as under the embedded runner (not Temporal's ActivityFailure wrapper).
 */
function asFlowError(error: unknown): unknown {
  // Cancellation of the workflow keeps Temporal's meaning.
  if (!(error instanceof ActivityFailure) || isCancellation(error)) return error;
  const cause = error.cause;
  const flowError = new Error(cause?.message ?? error.message);
  if (cause instanceof ApplicationFailure) flowError.name = cause.type ?? 'Error';
  else if (cause instanceof TimeoutFailure) flowError.name = 'ActivityTimeoutError';
  else flowError.name = cause?.name ?? 'Error';
  return flowError;
}

/**
 * A flow that throws fails its run (as under the embedded runner). Temporal would instead retry
 * the workflow task forever for a plain Error, so it is turned into a non-retryable
 * ApplicationFailure carrying the error's name and message.
 */
function asWorkflowFailure(error: unknown): unknown {
  // Temporal's own failures and signals to the SDK (determinism violations, continue-as-new)
  // keep their meaning.
  const temporalOwn =
    error instanceof TemporalFailure || error instanceof WorkflowError || error instanceof ContinueAsNew;
  if (temporalOwn || !(error instanceof Error)) return error;
  return ApplicationFailure.create({ message: error.message, type: error.name, nonRetryable: true });
}
