import { DBOS, Error as DBOSErrors } from '@dbos-inc/dbos-sdk';
import type { ActivityFunctions, ActivityOptions, AnyFlowDefinition, FlowContext } from '../../workflows/flow-context';
import type { SignalContract } from '../domain/flows';

/** setTimeout's (and so DBOS's) longest wait, about 24.8 days; longer waits are made of several. */
const MAX_WAIT_MS = 2_147_483_647;

/**
 * A wait that has blocked this long is a real wait (a replayed one returns its recorded outcome at
 * once): the run's recovery got it back to where it waits on the world, which counts as progress.
 */
const WAITING_COUNTS_AS_PROGRESS_MS = 1_000;

/** A call a flow made after its engine stopped: the run stays pending and resumes at the next launch. */
class EngineStoppedError extends Error {
  constructor() {
    super('The workflow engine of this process has stopped');
    this.name = 'EngineStoppedError';
  }
}

export interface DbosFlowContextDeps {
  flow: AnyFlowDefinition;
  activities: ActivityFunctions;
  /** The run's start, recorded with its input: the flow clock before its first step. */
  startedAt: number;
  /** True once this process's engine has stopped (the executions left in memory must do nothing more). */
  stopped: () => boolean;
  /** Runs an activity somewhere other than inline (a queue), or undefined to run it as a step here. */
  queued?: (activity: string, args: unknown[]) => Promise<ActivityOutcome> | undefined;
  /**
   * The run got somewhere in this execution: an activity ran here and finished, or a wait really
   * waited. Replayed steps do not count, so a run whose every recovery dies at the same step is
   * not mistaken for one that progresses (src/engine/recovery-attempts.ts).
   */
  progressed?: () => void;
}

/** What an activity step records: its JSON result and when it finished (the flow clock). */
export interface ActivityOutcome {
  value: unknown;
  at: number;
}

/**
 * The flow context on DBOS Transact: each activity call is a DBOS step with the activity's
 * timeout and retry policy, `sleep` is DBOS's durable sleep, signals are DBOS messages whose
 * topic is the signal name, and `now()` is a clock that only moves to recorded times (the run's
 * start, each activity's recorded end, DBOS.now() after a sleep or wait), so replay sees the same.
 */
export function dbosFlowContext({
  flow,
  activities,
  startedAt,
  stopped,
  queued,
  progressed = () => {},
}: DbosFlowContextDeps): FlowContext<ActivityFunctions> {
  let clock = startedAt;
  const live = () => {
    if (stopped()) throw new EngineStoppedError();
  };
  const waiting = async <T>(wait: Promise<T>): Promise<T> => {
    const timer = setTimeout(progressed, WAITING_COUNTS_AS_PROGRESS_MS);
    try {
      return await wait;
    } finally {
      clearTimeout(timer);
    }
  };
  const proxies: ActivityFunctions = {};
  for (const name of Object.keys(flow.activityOptions)) {
    proxies[name] = async (...args: unknown[]) => {
      live();
      const jsonArgs = args.map(jsonClone);
      const outcome = await (queued?.(name, jsonArgs) ??
        runActivityStep(name, activities, jsonArgs, flow.activityOptions[name], progressed));
      clock = Math.max(clock, outcome.at);
      return outcome.value;
    };
  }
  return {
    activities: proxies,
    async sleep(ms) {
      for (let left = Math.max(0, ms); ; left -= MAX_WAIT_MS) {
        live();
        await waiting(DBOS.sleep(Math.min(left, MAX_WAIT_MS)));
        if (left <= MAX_WAIT_MS) break;
      }
      live();
      clock = Math.max(clock, await DBOS.now());
    },
    async waitForSignal<T>(signal: SignalContract<T>, timeoutMs?: number): Promise<T | undefined> {
      let message: { payload?: T } | null = null;
      for (let left = timeoutMs === undefined ? Infinity : Math.max(0, timeoutMs); ; left -= MAX_WAIT_MS) {
        live();
        message = await waiting(
          DBOS.recv<{ payload?: T }>(signal.name, { timeoutSeconds: Math.min(left, MAX_WAIT_MS) / 1000 }),
        );
        if (message !== null || left <= MAX_WAIT_MS) break;
      }
      live();
      clock = Math.max(clock, await DBOS.now());
      return message?.payload;
    },
    now: () => clock,
  };
}

/**
 * One activity call as one DBOS step: DBOS retries it with the activity's backoff and limits each
 * attempt to startToCloseTimeoutMs (a timed-out attempt is abandoned and its late result dropped;
 * DBOS fires `DBOS.stepStatus.timeoutSignal` for code that listens). The step stops retrying after
 * maximumAttempts (0: never) or at once for a non-retryable error, and records that error itself,
 * so the flow sees the activity's own error name and message, live and on replay. `ranHere` is
 * called when the activity ran in this execution and succeeded (not when its result was replayed).
 */
export async function runActivityStep(
  name: string,
  activities: ActivityFunctions,
  args: unknown[],
  { startToCloseTimeoutMs, retry }: ActivityOptions,
  ranHere?: () => void,
): Promise<ActivityOutcome> {
  const maxAttempts = retry.maximumAttempts > 0 ? retry.maximumAttempts : Infinity;
  let attempts = 0;
  try {
    const outcome = await DBOS.runStep(
      async () => {
        attempts += 1;
        // Activities get and give JSON, as under Temporal, so live and replayed runs see the same values.
        const value = jsonClone(await activities[name].apply(activities, args));
        return { value, at: Date.now() };
      },
      {
        name,
        retriesAllowed: true,
        maxAttempts,
        intervalSeconds: retry.initialIntervalMs / 1000,
        backoffRate: retry.backoffCoefficient,
        timeoutMS: startToCloseTimeoutMs,
        shouldRetry: (error) => attempts < maxAttempts && !isNonRetryable(error, retry),
      },
    );
    if (attempts > 0) ranHere?.();
    return outcome;
  } catch (error) {
    throw asActivityError(error);
  }
}

/** Errors named in nonRetryableErrorTypes, or carrying `nonRetryable: true` (like Temporal's ApplicationFailure). */
function isNonRetryable(error: unknown, retry: ActivityOptions['retry']): boolean {
  const { name, nonRetryable } = (error ?? {}) as { name?: unknown; nonRetryable?: unknown };
  return nonRetryable === true || (typeof name === 'string' && retry.nonRetryableErrorTypes?.includes(name) === true);
}

/**
 * What a flow catches when an activity failed for good: an Error with the activity error's name
 * and message (a timeout is `ActivityTimeoutError`, as under Temporal). DBOS's own errors (lost
 * ownership, cancellation, shutdown) pass through unchanged, for DBOS to handle.
 */
export function asActivityError(error: unknown): unknown {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (error instanceof DBOSErrors.DBOSStepTimeoutError || name === 'DBOSStepTimeoutError') {
    return namedError('ActivityTimeoutError', String(message));
  }
  if (error instanceof DBOSErrors.DBOSError) return error;
  return namedError(typeof name === 'string' ? name : 'Error', typeof message === 'string' ? message : String(error));
}

function namedError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** The value as JSON gives it back: what activities and flows exchange under either engine. */
export function jsonClone(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
