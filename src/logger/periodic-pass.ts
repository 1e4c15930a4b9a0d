import type { Logger } from 'pino';

export interface PeriodicPassOptions {
  /** The work of one pass; `stopped()` turns true once `stop` is called, so a long pass can end early. */
  pass(stopped: () => boolean): Promise<void>;
  intervalMs: number;
  /** Also run one pass at once, not only after the first interval. */
  atStart: boolean;
  /** What the warning says when a pass throws; the next interval runs it again. */
  failure: string;
  log: Logger;
}

export interface PeriodicPass {
  /** One pass now, after the one under way. */
  runNow(): Promise<void>;
  /** No further pass; resolves once the one under way has ended. */
  stop(): Promise<void>;
}

/**
 * A pass that runs every `intervalMs` in this process, one at a time: a tick while a pass is under
 * way is skipped rather than queued, a failed pass is logged and tried again at the next tick, and
 * the timer never keeps the process alive. The outbox relay, upload expiry, parked-flow watch and
 * executor recovery each run on one.
 */
export function startPeriodicPass({ pass, intervalMs, atStart, failure, log }: PeriodicPassOptions): PeriodicPass {
  let running: Promise<void> | undefined;
  let stopped = false;
  const isStopped = () => stopped;
  const tick = () => {
    if (running || stopped) return;
    running = pass(isStopped)
      .catch((error: unknown) => log.warn({ err: error }, failure))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  if (atStart) tick();
  return {
    async runNow() {
      await running;
      await pass(isStopped);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
