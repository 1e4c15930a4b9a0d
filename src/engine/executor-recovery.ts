import type { Logger } from 'pino';
import { startPeriodicPass } from '../logger/periodic-pass';
import type { ExecutorLease } from './executor-lease';

export interface ExecutorRecoveryOptions {
  lease: ExecutorLease;
  /** Executor ids other than ours that own PENDING runs of our application version. */
  executorsWithPendingRuns(): Promise<string[]>;
  /** Hands executor `id`'s pending runs back to the queues (DBOS's own recovery); returns how many. */
  recover(executorId: string): Promise<number>;
  /** An executor whose lock has been free at every look for this long is dead. */
  deadAfterMs: number;
  intervalMs: number;
  log: Logger;
  now?: () => number;
}

/**
 * Takes over the runs of dead executors: every `intervalMs`, each executor that owns pending runs
 * is looked at through its lease lock (executor-lease.ts). A lock that is free at every look for
 * `deadAfterMs` belongs to a process that is gone, since a live one takes its lock back (or stops)
 * within a third of that; its runs are then recovered while this process holds its lock, so the
 * executor cannot come back mid-recovery. A takeover thus happens within about
 * `deadAfterMs + intervalMs` of the lock's release.
 */
export interface ExecutorRecovery {
  /** One pass now (after the one under way). */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

export function startExecutorRecovery(options: ExecutorRecoveryOptions): ExecutorRecovery {
  const { lease, log, deadAfterMs } = options;
  const now = options.now ?? Date.now;
  /** Since when each executor's lock has been seen free, at every look. */
  const freeSince = new Map<string, number>();

  const sweep = async (stopped: () => boolean) => {
    const owners = await options.executorsWithPendingRuns();
    for (const seen of freeSince.keys()) if (!owners.includes(seen)) freeSince.delete(seen);
    for (const executorId of owners) {
      if (stopped()) return;
      const outcome = await lease.whileFree(executorId, async () => {
        const since = freeSince.get(executorId) ?? now();
        freeSince.set(executorId, since);
        if (now() - since < deadAfterMs) return;
        const recovered = await options.recover(executorId);
        freeSince.delete(executorId);
        log.warn({ executorId, runs: recovered, freeForMs: now() - since }, "took over a dead executor's pending runs");
      });
      if (outcome === 'held') freeSince.delete(executorId);
    }
  };

  const periodic = startPeriodicPass({
    pass: sweep,
    intervalMs: options.intervalMs,
    atStart: true,
    log,
    failure: 'executor recovery pass failed; retrying',
  });
  return { sweep: periodic.runNow, stop: periodic.stop };
}
