import type { WorkflowEngine } from '../domain/flows';
import type { ParkedFlow } from './parked-flows';

// The port the services use lives in the domain; the engine adapters implement it.
export { WorkflowNotFoundError, type WorkflowEngine } from '../domain/flows';

type WorkflowStatus = 'running' | 'completed' | 'failed';

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
  /**
   * The runs the engine parked after too many recoveries without progress (src/engine/parked-flows.ts).
   * Only the embedded engine (DBOS) parks runs; under Temporal a crashing activity is bounded by its
   * own retry policy and this is absent.
   */
  parkedFlows?(): Promise<ParkedFlow[]>;
}

export class UnknownFlowError extends Error {
  constructor(readonly flowName: string) {
    super(`Unknown flow "${flowName}"`);
    this.name = 'UnknownFlowError';
  }
}
