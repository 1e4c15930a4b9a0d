import type { Logger } from 'pino';
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';

/**
 * DBOS counts every start and every recovery of a run (`recovery_attempts`) and, at the dispatch
 * after the count passed its workflow's `maxRecoveryAttempts` + 1, parks the run instead of running
 * it (status MAX_RECOVERY_ATTEMPTS_EXCEEDED, its dead-letter state): a run whose execution kills its
 * process (heap exhaustion, a native crash) is then resumed a bounded number of times, not at every
 * start forever. DBOS never lowers the count, though, so a fulfilment waiting days for printer
 * events would be parked after a few ordinary deploys. So once per execution, when the run gets
 * somewhere (an activity ran and finished here, or a wait really waited: dbos-flow-context.ts), its
 * count goes back to 1, as after a fresh start. Only a run whose recoveries keep ending with their
 * process before it progresses reaches the limit.
 */
export function recoveryProgress(workflowId: string, log: Logger): () => void {
  let reset = false;
  return () => {
    if (reset) return;
    reset = true;
    void resetRecoveryAttempts(workflowId).catch((error: unknown) => {
      // The next progress tries again; meanwhile the count only stays as high as it was.
      reset = false;
      log.debug({ err: error, workflowId }, 'could not reset the recovery attempts of a run');
    });
  };
}

async function resetRecoveryAttempts(workflowId: string): Promise<void> {
  const executor = DBOSExecutor.globalInstance;
  if (!executor) return;
  const { pool, schemaName } = executor.systemDatabase;
  await pool.query(
    `UPDATE "${schemaName}".workflow_status SET recovery_attempts = 1
      WHERE workflow_uuid = $1 AND status = 'PENDING' AND recovery_attempts > 1`,
    [workflowId],
  );
}
