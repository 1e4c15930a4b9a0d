import { DBOS, DBOSClient, type DLogger } from '@dbos-inc/dbos-sdk';
// DBOS's recovery of another executor's runs has no public entry point since its admin server went.
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { ensureSystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import { GlobalLogger } from '@dbos-inc/dbos-sdk/internal/telemetry/logs';
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
import type { Environment } from '../domain/environment';
import { activeSpan, currentTraceparent, inSpan, inTraceOf } from '../telemetry/trace-context';
import {
  UnknownFlowError,
  WorkflowNotFoundError,
  type ManagedWorkflowEngine,
  type WorkflowOutcome,
} from './workflow-engine';

/**
 * The application version DBOS stamps on every run it starts. DBOS recovers only the pending runs
 * of the version it is launched with, and by default derives the version from a hash of the
 * registered code: any release would then orphan every fulfilment waiting (for days) for printer
 * events. So it is a constant: keep it while flows change compatibly (their calls to the context
 * happen in the same order for runs already under way); change it only together with a plan for
 * the runs of the old version (let them finish on a process still running it, or fork them).
 */
export const FLOW_CODE_VERSION = 'photobook-flows-1';

/** Our name in DBOS's tables; runs, queues and schedules are scoped to it. */
export const APPLICATION_NAME = 'photobook';

/**
 * The queue of flows that have no queue of their own but cannot start in the calling process:
 * started from inside an activity (a step, where DBOS refuses to start a workflow) or by an API
 * process, which runs no flows. They are enqueued through a DBOSClient; the processes that run
 * flows take them from here. No limit: it only hands them over.
 */
export const FLOW_START_QUEUE = 'started-from-activities';

/** The schema of DBOS's tables, in the application's own database. */
export const DBOS_SCHEMA = 'dbos';

/**
 * A DBOS queue partitioned by tenant (client and environment): at most `workerConcurrency` of its
 * runs at once per process, of which at most `tenantConcurrency` are one tenant's. Each poll visits
 * the tenants with waiting work in a random order, so a tenant with a backlog never holds the
 * slots it does not have, and a tenant whose first run arrives takes the next free slot.
 */
interface TenantQueue {
  name: string;
  workerConcurrency: number;
  tenantConcurrency: number;
}

/** Activities that run as queued child workflows of their flow, on the flow run's tenant partition. */
export interface ActivityQueue extends TenantQueue {
  activities: string[];
  /** Only the runs of tenants in these environments use this queue; unset: every environment. */
  environments?: Environment[];
}

/** Flows that start on a queue, on their tenant's partition. */
export interface FlowQueue extends TenantQueue {
  flows: string[];
}

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

/**
 * What a flow's workflow receives: the caller's input, when the run was started (its clock),
 * whose work it is (absent in runs recorded before runs had tenants) and the trace of the request
 * that started it (W3C `traceparent`; absent when not tracing and in runs recorded before).
 */
export interface FlowRun {
  input: unknown;
  startedAt: number;
  tenant?: FlowTenant;
  traceparent?: string;
}

/**
 * The run's `traceparent` field, when tracing: DBOS's queues do not carry trace context, so a run
 * taken from a queue by another process continues the starter's trace from it.
 */
export function startersTrace(): Pick<FlowRun, 'traceparent'> {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}

/**
 * Runs a queued activity inside a span of the trace of the flow run that queued it. DBOS's own span
 * of the run (a queued run's is a root of its own) is linked; the activity's step is a child of this span.
 * Only spans: what the run records and replays is unchanged.
 */
function inActivitySpan<T>(activity: string, traceparent: string | undefined, body: () => Promise<T>): Promise<T> {
  const engineSpan = activeSpan();
  const attributes = { 'workflow.id': DBOS.workflowID ?? '' };
  const options = { kind: 'consumer', attributes, linkedTo: engineSpan } as const;
  return inTraceOf(traceparent, () => inSpan(`activity ${activity}`, options, body));
}

/** The partition of a run recorded without a tenant. */
const UNATTRIBUTED_PARTITION = 'unattributed';

export const UNFINISHED = ['PENDING', 'ENQUEUED', 'DELAYED'];

/**
 * How often a queue looks for work and a flow for its queued activity's end (DBOS's default is 1 s:
 * about a second lost per queued activity, several per fulfilment).
 */
const QUEUE_POLL_MS = 200;
/** Queues kept only to drain what earlier releases left on them are looked at less often. */
const DRAINED_QUEUE_POLL_MS = 5_000;

/**
 * Signal `name` with `payload` is the DBOS message `{ payload }` on topic `name` (wrapped, so a
 * signal without payload is a message too: DBOS answers a timed-out recv with null).
 */
export function signalMessage(payload: unknown): { payload?: unknown } {
  return { payload };
}

/**
 * Creates or migrates DBOS's tables. DBOS.launch does it too, but unserialised: replicas starting
 * together would race. An API process (a DBOSClient) never does it, and may be the first to start.
 */
export async function migrateDbosSchema(databaseUrl: string, log: Logger): Promise<void> {
  await ensureSystemDatabase(
    databaseUrl,
    new GlobalLogger(undefined, { logger: dbosLogger(log) }),
    undefined,
    DBOS_SCHEMA,
  );
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
  async executorsWithPendingRuns(): Promise<string[]> {
    // One DISTINCT over the status index, not a listing of every pending run (fulfilments wait for days).
    const { pool, schemaName } = DBOSExecutor.globalInstance!.systemDatabase;
    const { rows } = await pool.query<{ executor_id: string }>(
      `SELECT DISTINCT executor_id FROM "${schemaName}".workflow_status
        WHERE status = 'PENDING' AND application_version = $1 AND executor_id <> $2 AND (application_name = $3 OR application_name IS NULL)`,
      [FLOW_CODE_VERSION, DBOS.executorID, APPLICATION_NAME],
    );
    return rows.map((row) => row.executor_id);
  }

  /**
   * Hands the pending runs of executor `executorId` (of this version) back to their queues through
   * DBOS's own recovery, the one DBOS runs for its own executor at launch; the processes that run
   * flows then resume each from its last recorded step. Only for an executor known to be dead.
   */
  async recoverRunsOf(executorId: string): Promise<number> {
    this.assertRunning();
    return (await DBOSExecutor.globalInstance!.recoverPendingWorkflows([executorId])).length;
  }

  private assertRunning(): void {
    if (this.stopped) throw new Error('The embedded workflow engine is stopped');
  }
}

/** The queue of `environment` among an activity's queues (one with no environments takes any). */
function queueForEnvironment(queues: ActivityQueue[] | undefined, environment: Environment): ActivityQueue | undefined {
  return queues?.find((queue) => !queue.environments || queue.environments.includes(environment));
}

/**
 * Polls a run's status until it finished or `timeoutMs` passed: the same answer whether DBOS runs
 * in this process or is reached through a DBOSClient.
 */
export async function pollOutcome(
  statusOf: (workflowId: string) => Promise<{ status: string; output?: unknown; error?: unknown } | null | undefined>,
  workflowId: string,
  timeoutMs: number,
): Promise<WorkflowOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await statusOf(workflowId);
    if (status?.status === 'SUCCESS') return { status: 'completed', result: status.output ?? undefined };
    if (status && !UNFINISHED.includes(status.status))
      return { status: 'failed', error: describeError(status.error ?? new Error(status.status)) };
    if (Date.now() >= deadline) {
      if (!status) throw new WorkflowNotFoundError(workflowId);
      return { status: 'running' };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))));
  }
}

function describeError(error: unknown): string {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : String(error)}`;
}

/** DBOS's log lines go to our logger, its chatty lifecycle messages at debug level. */
export function dbosLogger(log: Logger): DLogger {
  const write = (level: 'debug' | 'warn' | 'error') => (entry: unknown) => {
    if (entry instanceof Error) log[level]({ err: entry }, entry.message);
    else log[level](typeof entry === 'string' ? entry : JSON.stringify(entry));
  };
  return { info: write('debug'), debug: write('debug'), warn: write('warn'), error: write('error') };
}
