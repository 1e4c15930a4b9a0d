/** setTimeout's longest delay (about 24.8 days); longer waits are made of several timers. */
const MAX_TIMER_MS = 2_147_483_647;

/** The reason an execution stopped: `stop()` of the engine (a simulated crash) or a lost lock. */
export class ExecutionAbortedError extends Error {
  constructor(reason = 'workflow execution stopped') {
    super(reason);
    this.name = 'ExecutionAbortedError';
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new ExecutionAbortedError();
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const until = Date.now() + Math.max(0, ms);
    let timer: NodeJS.Timeout;
    const arm = () => {
      const left = until - Date.now();
      if (left <= 0) {
        signal?.removeEventListener('abort', onAbort);
        resolve();
        return;
      }
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
  });
}

/** `promise`, unless the signal aborts first (the promise's own work is then abandoned). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
