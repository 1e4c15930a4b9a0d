import {
  ApplicationFailure,
  Client,
  Connection,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError as TemporalWorkflowNotFoundError,
} from '@temporalio/client';
import type { Logger } from 'pino';
import {
  UnknownFlowError,
  WorkflowNotFoundError,
  type ManagedWorkflowEngine,
  type WorkflowOutcome,
} from './workflow-engine';
import { setTimeout as delay } from 'node:timers/promises';
import { tenantQueueKey, type FlowContract, type FlowStartOptions, type SignalContract } from '../domain/flows';

/**
 * Temporal's priority keys run from 1 (first) to 5; 3 is the default. Sandbox work waits behind
 * live work in a backlog, so a sandbox never delays a live order.
 */
const LIVE_PRIORITY = 3;
const SANDBOX_PRIORITY = 4;

export interface TemporalEngineOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Names of the flows the worker runs (workflows/temporal/index.ts exports one per flow). */
  flowNames: string[];
  log: Logger;
}

/**
 * Starts and signals flows on Temporal; the worker process (src/worker.ts) executes them. The
 * workflow type is the flow's name, the workflow id the caller's.
 */
export class TemporalEngine implements ManagedWorkflowEngine {
  private constructor(
    private readonly connection: Connection,
    private readonly client: Client,
    private readonly options: TemporalEngineOptions,
  ) {}

  static async connect(options: TemporalEngineOptions): Promise<TemporalEngine> {
    const connection = await Connection.connect({ address: options.address });
    const client = new Client({ connection, namespace: options.namespace });
    options.log.info(
      { address: options.address, namespace: options.namespace, taskQueue: options.taskQueue },
      'flows run on Temporal',
    );
    return new TemporalEngine(connection, client, options);
  }

  async start<I>(flow: FlowContract<I>, input: NoInfer<I>, { tenant }: FlowStartOptions): Promise<void> {
    if (!this.options.flowNames.includes(flow.name)) throw new UnknownFlowError(flow.name);
    try {
      await this.client.workflow.start(flow.name, {
        workflowId: flow.workflowId(input, tenant),
        taskQueue: this.options.taskQueue,
        args: [input],
        // Task-queue fairness: a backlog is dispatched in turn per tenant, whoever enqueued most.
        // The workflow's activities inherit its priority.
        priority: {
          fairnessKey: tenantQueueKey(tenant),
          priorityKey: tenant.env === 'dev' ? SANDBOX_PRIORITY : LIVE_PRIORITY,
        },
        // A running workflow with this id: keep it. A closed one (completed or failed): refuse,
        // which the catch below turns into a no-op.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return;
      throw error;
    }
  }

  async signal<P>(signal: SignalContract<P>, workflowId: string, payload: NoInfer<P>): Promise<void> {
    const handle = this.client.workflow.getHandle(workflowId);
    try {
      if (payload === undefined) await handle.signal(signal.name);
      else await handle.signal(signal.name, payload);
    } catch (error) {
      if (error instanceof TemporalWorkflowNotFoundError) throw new WorkflowNotFoundError(workflowId);
      throw error;
    }
  }

  async waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowOutcome> {
    const handle = this.client.workflow.getHandle(workflowId);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let status: string;
      try {
        status = (await handle.describe()).status.name;
      } catch (error) {
        if (error instanceof TemporalWorkflowNotFoundError) throw new WorkflowNotFoundError(workflowId);
        throw error;
      }
      if (status !== 'RUNNING') break;
      if (Date.now() >= deadline) return { status: 'running' };
      await delay(Math.min(250, deadline - Date.now()));
    }
    try {
      return { status: 'completed', result: await handle.result() };
    } catch (error) {
      if (!(error instanceof WorkflowFailedError)) throw error;
      const cause = error.cause;
      const name = cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : (cause?.name ?? 'Error');
      return { status: 'failed', error: `${name}: ${cause?.message ?? error.message}` };
    }
  }

  async stop(): Promise<void> {
    await this.connection.close();
  }
}
