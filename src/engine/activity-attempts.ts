import type { Logger } from 'pino';
import type { ActivityOptions } from '../../workflows/flow-context';
import { delay, raceAbort } from './abortable';

/** An attempt that ran longer than the activity's `startToCloseTimeoutMs`; retried like any error. */
export class ActivityTimeoutError extends Error {
  constructor(activity: string, timeoutMs: number) {
    super(`Activity ${activity} did not finish within ${timeoutMs} ms`);
    this.name = 'ActivityTimeoutError';
  }
}

/** Wait before attempt `attempt + 1`: initial * coefficient^(attempt - 1), capped. */
export function retryDelayMs(retry: ActivityOptions['retry'], attempt: number): number {
  return Math.min(retry.initialIntervalMs * retry.backoffCoefficient ** (attempt - 1), retry.maximumIntervalMs);
}

export interface ActivityCall {
  name: string;
  fn: (...args: unknown[]) => Promise<unknown>;
  /** Receiver of the call, so activities written as methods keep their `this`. */
  self: unknown;
  args: unknown[];
  options: ActivityOptions;
  /** Aborting abandons the current attempt and any wait for the next one. */
  signal: AbortSignal;
  log: Logger;
}

/**
 * Runs an activity the way Temporal does: each attempt limited to `startToCloseTimeoutMs`, failed
 * attempts retried with exponential backoff up to `maximumAttempts` (0 means unlimited, as in
 * Temporal), except errors whose `name` is listed in `nonRetryableErrorTypes` (or that carry
 * `nonRetryable: true`, like Temporal's ApplicationFailure). Throws the last error.
 */
export async function runActivityWithRetries(call: ActivityCall): Promise<unknown> {
  const { name, options, signal, log } = call;
  const { retry } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await raceAbort(attemptOnce(call), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const failure = asError(error);
      const nonRetryable =
        retry.nonRetryableErrorTypes?.includes(failure.name) === true ||
        (failure as { nonRetryable?: unknown }).nonRetryable === true;
      const exhausted = retry.maximumAttempts > 0 && attempt >= retry.maximumAttempts;
      if (nonRetryable || exhausted) throw failure;
      const wait = retryDelayMs(retry, attempt);
      log.warn({ activity: name, attempt, retryInMs: wait, err: failure }, 'activity attempt failed; retrying');
      await delay(wait, signal);
    }
  }
}

function attemptOnce({ name, fn, self, args, options }: ActivityCall): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ActivityTimeoutError(name, options.startToCloseTimeoutMs)),
      options.startToCloseTimeoutMs,
    );
    // A synchronous throw is a failed attempt too.
    new Promise((run) => run(fn.apply(self, args))).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  const wrapped = new Error(typeof error === 'string' ? error : JSON.stringify(error) ?? String(error));
  return wrapped;
}
