import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Logger } from 'pino';
import type { ActivityFunctions, ActivityOptions, AnyFlowDefinition } from '../../workflows/flow-context';
import {
  asActivityError,
  dbosFlowContext,
  jsonClone,
  runActivityStep,
  type ActivityOutcome,
} from './dbos-flow-context';
import { registerRetention } from './workflow-retention';
import { recordFlowFailure } from '../metrics/work-metrics';
import { recoveryProgress } from './recovery-attempts';
import { listParkedFlows, type ParkedFlow } from './parked-flows';
import type { ExecutorLease } from './executor-lease';
import { startExecutorRecovery, type ExecutorRecovery } from './executor-recovery';
import {
  tenantQueueKey,
  type FlowContract,
  type FlowStartOptions,
  type FlowTenant,
  type SignalContract,
} from '../domain/flows';
import { currentTraceparent, inTraceOf } from '../telemetry/trace-context';
import { APPLICATION_NAME, DBOS_SCHEMA, FLOW_CODE_VERSION, FLOW_START_QUEUE } from './dbos-names';
import {
  DRAINED_QUEUE_POLL_MS,
  QUEUE_POLL_MS,
  UNATTRIBUTED_PARTITION,
  queueForEnvironment,
  type ActivityQueue,
  type FlowQueue,
} from './dbos-queues';
import { UNFINISHED, pollOutcome, signalMessage, startersTrace, type FlowRun } from './dbos-runs';
import { inActivitySpan } from './dbos-activity-span';
import { dbosLogger, executorsWithPendingRuns, recoverPendingRunsOf } from './dbos-system-database';
import {
  UnknownFlowError,
  WorkflowNotFoundError,
  type ManagedWorkflowEngine,
  type WorkflowOutcome,
} from './workflow-engine';

export interface DbosEngineOptions {
  /** The application's PostgreSQL database: DBOS keeps its tables there, in schema `dbos`. */
  databaseUrl: string;
  /**
   * This process as an executor among several: DBOS runs as the lease's executor id, takes over the
   * runs of dead executors (executor-recovery.ts) and releases the lease last when stopped. Unset:
   * DBOS's default executor id, `local`, and no takeovers (one process on the database).
   */
  executor?: { lease: ExecutorLease; deadAfterMs: number; recoveryIntervalMs: number };
  flows: AnyFlowDefinition[];
  /** Every activity by name; each flow's `activityOptions` names must be among them. */
  activities: ActivityFunctions;
  log: Logger;
  /**
   * Recoveries without progress DBOS allows a run before it parks it (MAX_RECOVERY_ATTEMPTS_EXCEEDED,
   * recovery-attempts.ts). Default: DBOS's own, 100.
   */
  maxRecoveryAttempts?: number;
  /** Finished runs older than this are deleted by a scheduled workflow. */
  retentionMs: number;
  /** Connections of DBOS's system database pool (FLOW_DB_POOL_MAX). Default: 6. */
  poolSize?: number;
  /** Cron schedule of that pruning. Default: hourly. */
  retentionSchedule?: string;
  queues?: ActivityQueue[];
  flowQueues?: FlowQueue[];
  /**
   * Queues that earlier releases used without partitions: a partitioned queue never dequeues a run
   * enqueued without a partition key, so these stay registered (unpartitioned) until drained.
   */
  drainedQueues?: { name: string; workerConcurrency: number }[];
  /** An OpenTelemetry SDK is registered (src/telemetry/): DBOS then records its spans of runs and steps through it. */
  tracing?: boolean;
}

/** The engine holding DBOS in this process: DBOS is a process-wide singleton. */
let launched: DbosEngine | undefined;

/**
 * Runs the flows of workflows/ inside this process on DBOS Transact, when there is no Temporal
 * (TEMPORAL_ADDRESS unset). DBOS journals runs, steps, messages and timers in the application's
 * PostgreSQL (schema `dbos`) and at launch recovers the runs of FLOW_CODE_VERSION left pending.
 */
export class DbosEngine implements ManagedWorkflowEngine {
  // biome-ignore lint/suspicious/noExplicitAny: each flow returns its own output type; the map holds them all
  private readonly workflows = new Map<string, (run: FlowRun) => Promise<any>>();
  /** The queue a flow starts on, when it has one. */
  private readonly flowQueueOf = new Map<string, string>();
  private stopped = false;
  private client?: DBOSClient;
  private lease?: ExecutorLease;
  private recovery?: ExecutorRecovery;

  private constructor() {}

  /** Registers the flows, launches DBOS (recovering pending runs) and schedules the pruning. */
  static async launch(options: DbosEngineOptions): Promise<DbosEngine> {
    if (launched) throw new Error('DBOS already runs in this process: stop its engine before launching another');
    const log = options.log.child({ component: 'dbos-workflow-engine' });
    const engine = new DbosEngine();
    launched = engine;
    try {
      const retention = engine.register(options, log);
      DBOS.setConfig({
        name: APPLICATION_NAME,
        systemDatabaseUrl: options.databaseUrl,
        systemDatabaseSchemaName: DBOS_SCHEMA,
        systemDatabasePoolSize: options.poolSize ?? 6,
        applicationVersion: FLOW_CODE_VERSION,
        ...(options.executor ? { executorID: options.executor.lease.executorId } : {}),
        logger: dbosLogger(log),
        ...(options.tracing ? { tracingEnabled: true } : {}),
      });
      await DBOS.launch();
      engine.client = await DBOSClient.create({
        systemDatabaseUrl: options.databaseUrl,
        systemDatabaseSchemaName: DBOS_SCHEMA,
        systemDatabasePoolSize: 2,
        applicationName: APPLICATION_NAME,
        logger: dbosLogger(log),
      });
      await DBOS.registerQueue(FLOW_START_QUEUE, { minPollingIntervalMs: QUEUE_POLL_MS, onConflict: 'always_update' });
      for (const queue of [...(options.queues ?? []), ...(options.flowQueues ?? [])]) {
        await DBOS.registerQueue(queue.name, {
          workerConcurrency: queue.workerConcurrency,
          partitionWorkerConcurrency: queue.tenantConcurrency,
          minPollingIntervalMs: QUEUE_POLL_MS,
          onConflict: 'always_update',
        });
      }
      for (const queue of options.drainedQueues ?? []) {
        await DBOS.registerQueue(queue.name, {
          workerConcurrency: queue.workerConcurrency,
          minPollingIntervalMs: DRAINED_QUEUE_POLL_MS,
          onConflict: 'always_update',
        });
      }
      await retention.schedule(options.retentionMs, options.retentionSchedule ?? '0 * * * *');
      if (options.executor) {
        engine.lease = options.executor.lease;
        engine.recovery = startExecutorRecovery({
          lease: options.executor.lease,
          executorsWithPendingRuns: () => engine.executorsWithPendingRuns(),
          recover: (id) => engine.recoverRunsOf(id),
          deadAfterMs: options.executor.deadAfterMs,
          intervalMs: options.executor.recoveryIntervalMs,
          log,
        });
      }
    } catch (error) {
      await engine.stop().catch(() => {});
      throw error;
    }
    log.info({ version: FLOW_CODE_VERSION, executorId: DBOS.executorID }, 'flows run in this process on DBOS');
    return engine;
  }

  /** Registers every workflow with DBOS (before launch); returns the pruning's scheduler. */
  private register(
    { flows, activities, queues = [], flowQueues = [], maxRecoveryAttempts }: DbosEngineOptions,
    log: Logger,
  ): ReturnType<typeof registerRetention> {
    const bounded = maxRecoveryAttempts === undefined ? {} : { maxRecoveryAttempts };
    for (const queue of flowQueues) for (const flow of queue.flows) this.flowQueueOf.set(flow, queue.name);
    // An activity on a queue runs as a child workflow of its own, started on that queue.
    const queuesOf = new Map<string, ActivityQueue[]>();
    type QueuedWorkflow = (args: unknown[], options: ActivityOptions, traceparent?: string) => Promise<ActivityOutcome>;
    const queuedWorkflows = new Map<string, QueuedWorkflow>();
    for (const queue of queues) {
      for (const activity of queue.activities) {
        queuesOf.set(activity, [...(queuesOf.get(activity) ?? []), queue]);
        if (queuedWorkflows.has(activity)) continue;
        queuedWorkflows.set(
          activity,
          // `traceparent`, a third argument that runs recorded before it lack, is the flow run's trace.
          DBOS.registerWorkflow(
            (args: unknown[], options: ActivityOptions, traceparent?: string) =>
              inActivitySpan(activity, traceparent, () => runActivityStep(activity, activities, args, options)),
            {
              name: `activity:${activity}`,
              ...bounded,
            },
          ),
        );
      }
    }
    for (const flow of flows) {
      const { name } = flow.contract;
      if (this.workflows.has(name)) throw new Error(`Two flows are named "${name}"`);
      for (const activity of Object.keys(flow.activityOptions)) {
        if (typeof activities[activity] !== 'function') {
          throw new Error(
            `Flow ${name} uses activity "${activity}", which is not among the activities given to the engine`,
          );
        }
      }
      // A queued activity runs on its flow run's tenant partition, on the queue of the tenant's environment.
      const queuedFor = (tenant: FlowTenant | undefined) => (activity: string, args: unknown[]) => {
        const workflow = queuedWorkflows.get(activity);
        const queue = queueForEnvironment(queuesOf.get(activity), tenant?.env ?? 'prod');
        if (!workflow || !queue) return undefined;
        const enqueueOptions = { queuePartitionKey: tenant ? tenantQueueKey(tenant) : UNATTRIBUTED_PARTITION };
        const start = DBOS.startWorkflow(workflow, { queueName: queue.name, enqueueOptions });
        // Untraced, the run is recorded as before: the activity's arguments and options only.
        const traceparent = currentTraceparent();
        const options = flow.activityOptions[activity];
        return (traceparent ? start(args, options, traceparent) : start(args, options))
          .then((handle) => handle.getResult({ pollingIntervalMs: QUEUE_POLL_MS }))
          .catch((error: unknown) => {
            throw asActivityError(error);
          });
      };
      // A flow's result is JSON, as under Temporal.
      const run = async ({ input, startedAt, tenant, traceparent }: FlowRun) => {
        const progressed = recoveryProgress(DBOS.workflowID!, log);
        const stopped = () => this.stopped;
        const queued = queuedFor(tenant);
        const context = dbosFlowContext({ flow, activities, startedAt, stopped, queued, progressed });
        try {
          // The run's steps are spans of the trace that started it; no span of the run itself, which may wait for days.
          return jsonClone(await inTraceOf(traceparent, () => flow.run(context, input)));
        } catch (error) {
          recordFlowFailure(name, 'error');
          throw error;
        }
      };
      this.workflows.set(name, DBOS.registerWorkflow(run, { name, ...bounded }));
    }
    return registerRetention(bounded);
  }

  async start<I>(flow: FlowContract<I>, input: NoInfer<I>, { tenant }: FlowStartOptions): Promise<void> {
    const flowName = flow.name;
    const workflow = this.workflows.get(flowName);
    if (!workflow) throw new UnknownFlowError(flowName);
    const workflowId = flow.workflowId(input, tenant);
    this.assertRunning();
    const owner = { clientId: tenant.clientId, env: tenant.env };
    const run: FlowRun = { input, startedAt: Date.now(), tenant: owner, ...startersTrace() };
    const queueName = this.flowQueueOf.get(flowName);
    const partition = queueName ? { queuePartitionKey: tenantQueueKey(tenant) } : {};
    // An existing id (running or finished) gives a handle to that run; nothing new starts.
    if (!DBOS.isInStep()) {
      await DBOS.startWorkflow(workflow, {
        workflowID: workflowId,
        queueName,
        ...(queueName ? { enqueueOptions: partition } : {}),
      })(run);
      return;
    }
    await this.client!.enqueue(
      {
        queueName: queueName ?? FLOW_START_QUEUE,
        ...partition,
        workflowName: flowName,
        workflowID: workflowId,
        appVersion: FLOW_CODE_VERSION,
      },
      run,
    );
  }

  async signal<P>(signal: SignalContract<P>, workflowId: string, payload: NoInfer<P>): Promise<void> {
    this.assertRunning();
    const status = await DBOS.getWorkflowStatus(workflowId);
    if (!status || !UNFINISHED.includes(status.status)) throw new WorkflowNotFoundError(workflowId);
    await DBOS.send(workflowId, signalMessage(payload), signal.name);
  }

  waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowOutcome> {
    return pollOutcome((id) => DBOS.getWorkflowStatus(id), workflowId, timeoutMs);
  }

  /**
   * Shuts DBOS down without waiting, as a crash would: runs stay pending in the database and the
   * next launch on it recovers them. Executions left in memory make no further call to their
   * context. Registrations are cleared, so a later engine of this process can launch DBOS again.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      await this.recovery?.stop();
      await this.client?.destroy();
      await DBOS.shutdown({ deregister: true });
      // Last: until DBOS has stopped, this executor's runs are its own.
      await this.lease?.release();
    } finally {
      if (launched === this) launched = undefined;
    }
  }

  /** The runs DBOS parked after too many recoveries without progress (parked-flows.ts). */
  parkedFlows(): Promise<ParkedFlow[]> {
    return listParkedFlows((input) => DBOS.listWorkflows(input));
  }

  /** Executors other than this one that own pending runs of this version: candidates for a takeover. */
  executorsWithPendingRuns(): Promise<string[]> {
    return executorsWithPendingRuns(DBOS.executorID);
  }

  /**
   * Hands the pending runs of executor `executorId` (of this version) back to their queues through
   * DBOS's own recovery, the one DBOS runs for its own executor at launch; the processes that run
   * flows then resume each from its last recorded step. Only for an executor known to be dead.
   */
  async recoverRunsOf(executorId: string): Promise<number> {
    this.assertRunning();
    return recoverPendingRunsOf(executorId);
  }

  private assertRunning(): void {
    if (this.stopped) throw new Error('The embedded workflow engine is stopped');
  }
}
