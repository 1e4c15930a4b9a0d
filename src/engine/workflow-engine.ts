/**
 * What the services see of the workflow engine: Temporal in production (TEMPORAL_ADDRESS set), DBOS
 * Transact inside the API process otherwise. Both run the same flows from workflows/.
 */
export interface WorkflowEngine {
  /**
   * Starts flow `flowName` as `workflowId`. Idempotent: when a run with that id exists, running or
   * finished (completed or failed), nothing happens.
   */
  start<I>(flowName: string, workflowId: string, input: I): Promise<void>;
  /**
   * Sends signal `name` to a running flow; the flow's next `waitForSignal(name)` returns `payload`.
   * Signals sent before the flow waits are kept in order. Throws `WorkflowNotFoundError` when no
   * run with that id is running (never started, or already finished).
   */
  signal(workflowId: string, name: string, payload?: unknown): Promise<void>;
  /** Stops this process's part (executions, connections); runs stay durable and resume later. */
  stop(): Promise<void>;
}

export type WorkflowStatus = 'running' | 'completed' | 'failed';

export interface WorkflowOutcome {
  status: WorkflowStatus;
  /** The flow's return value, when completed. */
  result?: unknown;
  /** Why it failed (`Name: message`), when failed. */
  error?: string;
}

/** What `createWorkflowEngine` returns: the engine plus what the process that owns it needs. */
export interface ManagedWorkflowEngine extends WorkflowEngine {
  /**
   * The outcome of a run once it has finished, or `{ status: 'running' }` if it has not within
   * `timeoutMs`. For tests and for APIs that answer synchronously.
   */
  waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowOutcome>;
}

export class WorkflowNotFoundError extends Error {
  constructor(readonly workflowId: string) {
    super(`No running workflow with id "${workflowId}"`);
    this.name = 'WorkflowNotFoundError';
  }
}

export class UnknownFlowError extends Error {
  constructor(readonly flowName: string) {
    super(`Unknown flow "${flowName}"`);
    this.name = 'UnknownFlowError';
  }
}
