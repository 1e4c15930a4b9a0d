import { DBOS, type WorkflowStatusString } from '@dbos-inc/dbos-sdk';

/** The DBOS schedule that prunes old runs; tests trigger it by this name. */
export const RETENTION_SCHEDULE = 'prune-finished-runs';

const FINISHED: WorkflowStatusString[] = ['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED'];
const BATCH = 500;

/**
 * Deletes runs (with their steps, messages and timers) that finished more than `retentionMs`
 * before the scheduled time; pending runs are never touched. DBOS's own retention policies live
 * in its hosted Conductor, so pruning is a scheduled workflow of ours made of DBOS calls.
 */
async function pruneFinishedRuns(scheduledAt: Date, context: { retentionMs: number }): Promise<void> {
  await DBOS.runStep(
    async () => {
      const completedBefore = new Date(scheduledAt.getTime() - context.retentionMs).toISOString();
      for (;;) {
        const old = await DBOS.listWorkflows({
          status: FINISHED,
          completedBefore,
          limit: BATCH,
          loadInput: false,
          loadOutput: false,
        });
        if (old.length > 0)
          await DBOS.deleteWorkflows(
            old.map((run) => run.workflowID),
            true,
          );
        if (old.length < BATCH) return;
      }
    },
    { name: 'deleteFinishedRuns' },
  );
}

/** Registers the pruning workflow (before DBOS.launch); `schedule` then (re)writes its schedule. */
export function registerRetention(options: { maxRecoveryAttempts?: number } = {}) {
  const workflow = DBOS.registerWorkflow(pruneFinishedRuns, { name: 'pruneFinishedRuns', ...options });
  return {
    schedule: (retentionMs: number, cron: string) =>
      DBOS.applySchedules([
        { scheduleName: RETENTION_SCHEDULE, workflowFn: workflow, schedule: cron, context: { retentionMs } },
      ]),
  };
}
