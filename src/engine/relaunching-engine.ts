import type { Logger } from 'pino';
import {
  WorkflowEngineUnavailableError,
  type FlowContract,
  type FlowStartOptions,
  type SignalContract,
} from '../domain/flows';
import type { DbosEngine } from './dbos-engine';
import type { ExecutorLease } from './executor-lease';
import type { ParkedFlow } from './parked-flows';
import type { ManagedWorkflowEngine, WorkflowOutcome } from './workflow-engine';

export interface RelaunchingEngineOptions {
  /** Takes this process's executor lease; `onLost` is called when it is lost for good. Throws while the database is away. */
  acquireLease(onLost: () => void): Promise<ExecutorLease>;
  /** Launches DBOS as the lease's executor (which recovers the executor's pending runs). */
  launch(lease: ExecutorLease): Promise<DbosEngine>;
  log: Logger;
}

/** Between attempts to take the lease and launch again: from 1 s, doubling, to 10 s. */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 10_000;

/**
 * The engine of a process that runs flows on DBOS, which outlives a database outage. A process
 * whose executor lease is lost (its database away for longer than a third of EXECUTOR_DEAD_AFTER)
 * must stop executing at once, since a live worker may then take its runs over; it used to exit
 * (status 70), and in the one-process shape nothing restarted it. Now it stops DBOS only, keeps
 * serving (requests that need the engine answer 503 meanwhile: WorkflowEngineUnavailableError),
 * takes its lease again once the database answers and launches DBOS again, which resumes the
 * executor's pending runs from their last recorded step (or none, if a worker took them over).
 */
export class RelaunchingEngine implements ManagedWorkflowEngine {
  private current?: DbosEngine;
  private relaunch?: Promise<void>;
  /** The new lease was lost too while the relaunch was still under way: go round again after it. */
  private lostDuringRelaunch = false;
  private stopped = false;

  private constructor(private readonly options: RelaunchingEngineOptions) {}

  static async launch(options: RelaunchingEngineOptions): Promise<RelaunchingEngine> {
    const engine = new RelaunchingEngine(options);
    const lease = await options.acquireLease(() => engine.leaseLost());
    try {
      engine.current = await options.launch(lease);
    } catch (error) {
      await lease.release();
      throw error;
    }
    return engine;
  }

  start<I>(flow: FlowContract<I>, input: NoInfer<I>, options: FlowStartOptions): Promise<void> {
    return this.running().start(flow, input, options);
  }

  signal<P>(signal: SignalContract<P>, workflowId: string, payload: NoInfer<P>): Promise<void> {
    return this.running().signal(signal, workflowId, payload);
  }

  waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowOutcome> {
    return this.running().waitForCompletion(workflowId, timeoutMs);
  }

  parkedFlows(): Promise<ParkedFlow[]> {
    return this.running().parkedFlows();
  }

  /** The DBOS engine of this life (tests look at it); undefined between two lives. */
  get engine(): DbosEngine | undefined {
    return this.current;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.relaunch;
    const last = this.current;
    this.current = undefined;
    await last?.stop();
  }

  private running(): DbosEngine {
    if (!this.current) throw new WorkflowEngineUnavailableError();
    return this.current;
  }

  private leaseLost(): void {
    if (this.stopped) return;
    if (this.relaunch) {
      this.lostDuringRelaunch = true;
      return;
    }
    this.relaunch = this.relaunchAfterLoss().finally(() => {
      this.relaunch = undefined;
      if (this.lostDuringRelaunch) {
        this.lostDuringRelaunch = false;
        this.leaseLost();
      }
    });
  }

  private async relaunchAfterLoss(): Promise<void> {
    const { log } = this.options;
    const lost = this.current;
    this.current = undefined;
    // Executions left in memory make no further call to their context once their engine stopped.
    await lost
      ?.stop()
      .catch((error: unknown) =>
        log.warn({ err: error }, 'stopping the workflow engine after the lease was lost failed'),
      );
    log.warn('the workflow engine stopped with its executor lease; it launches again once the database answers');
    for (let wait = FIRST_RETRY_MS; !this.stopped; wait = Math.min(wait * 2, LAST_RETRY_MS)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.stopped) return;
      let lease: ExecutorLease | undefined;
      try {
        lease = await this.options.acquireLease(() => this.leaseLost());
        if (this.stopped) {
          await lease.release();
          return;
        }
        this.current = await this.options.launch(lease);
        log.warn('executor lease taken back and the workflow engine launched again: pending runs resume');
        return;
      } catch (error) {
        await lease?.release().catch(() => {});
        log.warn(
          { err: error, retryInMs: Math.min(wait * 2, LAST_RETRY_MS) },
          'the workflow engine cannot launch again yet',
        );
      }
    }
  }
}
