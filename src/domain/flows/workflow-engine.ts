/**
 * The port through which services start and signal flows, typed by each flow's contract. Temporal
 * at scale (TEMPORAL_ADDRESS set), DBOS Transact inside the service otherwise; both run the same
 * flows from workflows/.
 */
import type { FlowContract, SignalContract } from './flow-contract';
import type { FlowTenant } from './flow-tenant';

export interface FlowStartOptions {
  tenant: FlowTenant;
}

export interface WorkflowEngine {
  /**
   * Starts a run of `flow` under the workflow id its contract gives `input`. Idempotent: when a run
   * with that id exists, running or finished (completed or failed), nothing happens. The run and its
   * queued activities are queued under `options.tenant`.
   */
  start<I>(flow: FlowContract<I>, input: NoInfer<I>, options: FlowStartOptions): Promise<void>;
  /**
   * Sends `signal` to the running flow `workflowId`; its next wait for that signal returns `payload`.
   * Signals sent before the flow waits are kept in order. Throws `WorkflowNotFoundError` when no
   * run with that id is running (never started, or already finished).
   */
  signal<P>(signal: SignalContract<P>, workflowId: string, payload: NoInfer<P>): Promise<void>;
  /** Stops this process's part (executions, connections); runs stay durable and resume later. */
  stop(): Promise<void>;
}

/**
 * The process's workflow engine is between two lives: it stopped executing when it lost its
 * executor lease (a database outage) and launches again once the database is back. A moment's
 * state, answered like a database that is away (503, Retry-After).
 */
export class WorkflowEngineUnavailableError extends Error {
  constructor() {
    super('the workflow engine is waiting for the database to come back');
    this.name = 'WorkflowEngineUnavailableError';
  }
}

export class WorkflowNotFoundError extends Error {
  constructor(readonly workflowId: string) {
    super(`No running workflow with id "${workflowId}"`);
    this.name = 'WorkflowNotFoundError';
  }
}
