import { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Logger } from 'pino';
import { tenantQueueKey, type FlowContract, type FlowStartOptions, type SignalContract } from '../domain/flows';
import { APPLICATION_NAME, DBOS_SCHEMA, FLOW_CODE_VERSION, FLOW_START_QUEUE } from './dbos-names';
import type { FlowQueue } from './dbos-queues';
import { UNFINISHED, pollOutcome, signalMessage, startersTrace, type FlowRun } from './dbos-runs';
import { dbosLogger } from './dbos-system-database';
import { listParkedFlows, type ParkedFlow } from './parked-flows';
import {
  UnknownFlowError,
  WorkflowNotFoundError,
  type ManagedWorkflowEngine,
  type WorkflowOutcome,
} from './workflow-engine';

export interface DbosClientEngineOptions {
  databaseUrl: string;
  flowNames: string[];
  flowQueues: FlowQueue[];
  log: Logger;
  /** Connections of the client's pool (FLOW_DB_POOL_MAX). Default: 6. */
  poolSize?: number;
}

/**
 * The engine of an API process (ROLE=api) under DBOS: a DBOSClient, not DBOS launched, so the
 * process never executes a flow or takes work from a queue. Every start is an enqueue (a flow with
 * a queue of its own on its tenant's partition, any other on FLOW_START_QUEUE), which the processes
 * running flows (ROLE=worker or all) take; signals and outcomes go through the same tables.
 */
export class DbosClientEngine implements ManagedWorkflowEngine {
  private stopped = false;
  private constructor(
    private readonly client: DBOSClient,
    private readonly flowNames: Set<string>,
    private readonly flowQueueOf: Map<string, string>,
  ) {}

  static async connect(options: DbosClientEngineOptions): Promise<DbosClientEngine> {
    const { databaseUrl, flowNames, flowQueues, log, poolSize } = options;
    const client = await DBOSClient.create({
      systemDatabaseUrl: databaseUrl,
      systemDatabaseSchemaName: DBOS_SCHEMA,
      systemDatabasePoolSize: poolSize ?? 6,
      applicationName: APPLICATION_NAME,
      logger: dbosLogger(log.child({ component: 'dbos-client' })),
    });
    const queueOf = new Map(flowQueues.flatMap((queue) => queue.flows.map((flow) => [flow, queue.name] as const)));
    log.info({ version: FLOW_CODE_VERSION }, 'flows are enqueued for the worker processes (ROLE=api)');
    return new DbosClientEngine(client, new Set(flowNames), queueOf);
  }

  async start<I>(flow: FlowContract<I>, input: NoInfer<I>, { tenant }: FlowStartOptions): Promise<void> {
    if (!this.flowNames.has(flow.name)) throw new UnknownFlowError(flow.name);
    this.assertRunning();
    const queueName = this.flowQueueOf.get(flow.name);
    // The same run record as DbosEngine.start writes; an existing id leaves that run as it is.
    const owner = { clientId: tenant.clientId, env: tenant.env };
    const run: FlowRun = { input, startedAt: Date.now(), tenant: owner, ...startersTrace() };
    await this.client.enqueue(
      {
        queueName: queueName ?? FLOW_START_QUEUE,
        ...(queueName ? { queuePartitionKey: tenantQueueKey(tenant) } : {}),
        workflowName: flow.name,
        workflowID: flow.workflowId(input, tenant),
        appVersion: FLOW_CODE_VERSION,
      },
      run,
    );
  }

  async signal<P>(signal: SignalContract<P>, workflowId: string, payload: NoInfer<P>): Promise<void> {
    this.assertRunning();
    const status = await this.client.getWorkflow(workflowId);
    if (!status || !UNFINISHED.includes(status.status)) throw new WorkflowNotFoundError(workflowId);
    await this.client.send(workflowId, signalMessage(payload), signal.name);
  }

  waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowOutcome> {
    return pollOutcome((id) => this.client.getWorkflow(id), workflowId, timeoutMs);
  }

  parkedFlows(): Promise<ParkedFlow[]> {
    return listParkedFlows((input) => this.client.listWorkflows(input));
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.client.destroy();
  }

  private assertRunning(): void {
    if (this.stopped) throw new Error('The workflow engine client is stopped');
  }
}
