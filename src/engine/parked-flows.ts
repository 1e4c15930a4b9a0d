import type { GetWorkflowsInput, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { Logger } from 'pino';
import { startPeriodicPass } from '../logger/periodic-pass';

/** DBOS's dead-letter status: a run it stopped resuming after `maxRecoveryAttempts` (recovery-attempts.ts). */
export const PARKED = 'MAX_RECOVERY_ATTEMPTS_EXCEEDED';

/** A run the embedded engine parked: its recoveries kept ending with their process. */
export interface ParkedFlow {
  workflowId: string;
  flowName: string;
  /** Starts and recoveries DBOS counted, the last one being the one it refused. */
  recoveryAttempts: number;
  parkedAt: Date;
}

/** Lists runs through DBOS (DBOS.listWorkflows in a process running flows, a DBOSClient's elsewhere). */
export type ListWorkflows = (input: GetWorkflowsInput) => Promise<WorkflowStatus[]>;

/** The parked runs, newest first (at most `limit`). */
export async function listParkedFlows(list: ListWorkflows, limit = 1000): Promise<ParkedFlow[]> {
  const runs = await list({ status: PARKED, sortDesc: true, limit, loadInput: false, loadOutput: false });
  return runs.map(parkedFlowOf);
}

function parkedFlowOf(run: WorkflowStatus): ParkedFlow {
  return {
    workflowId: run.workflowID,
    flowName: run.workflowName,
    recoveryAttempts: run.recoveryAttempts ?? 0,
    parkedAt: new Date(run.completedAt ?? run.updatedAt ?? run.createdAt),
  };
}

export interface ParkedFlowWatchOptions {
  parkedFlows(): Promise<ParkedFlow[]>;
  /** What the business side does about a parked run (its order line moves to failed): idempotent. */
  onParked(flow: ParkedFlow): Promise<void>;
  intervalMs: number;
  log: Logger;
}

export interface ParkedFlowWatch {
  stop(): Promise<void>;
}

/**
 * Looks for parked runs every `intervalMs` (and at once): each one this process has not seen yet is
 * logged as an error (`flow parked`, with what an operator does next) and handed to `onParked`, which
 * is retried at the next look until it succeeds. DBOS parks a run at a dispatch, inside its queue
 * runner, and tells nobody: this is how the service hears of it.
 */
export function watchParkedFlows({ parkedFlows, onParked, intervalMs, log }: ParkedFlowWatchOptions): ParkedFlowWatch {
  const handled = new Set<string>();
  const look = async (stopped: () => boolean) => {
    const parked = await parkedFlows();
    // A run retried since (and perhaps parked again later) is news again.
    for (const id of handled) if (!parked.some((flow) => flow.workflowId === id)) handled.delete(id);
    for (const flow of parked) {
      if (stopped()) return;
      if (handled.has(flow.workflowId)) continue;
      log.error(
        {
          workflowId: flow.workflowId,
          flow: flow.flowName,
          recoveryAttempts: flow.recoveryAttempts,
          parkedAt: flow.parkedAt,
        },
        `flow parked: its recoveries kept ending with the process; \`npm run cli -- flow retry ${flow.workflowId}\` once the cause is fixed, or \`flow cancel\``,
      );
      await onParked(flow);
      handled.add(flow.workflowId);
    }
  };
  const periodic = startPeriodicPass({
    pass: look,
    intervalMs,
    atStart: true,
    log,
    failure: 'looking for parked flows failed; trying again',
  });
  return { stop: periodic.stop };
}
