import type { Logger } from 'pino';
import type { Config } from '../config';
import type { ActivityFunctions, AnyFlowDefinition } from '../../workflows/flow-context';
import { DbosEngine } from './dbos-engine';
import { FLOW_START_QUEUE } from './dbos-names';
import type { ActivityQueue, FlowQueue } from './dbos-queues';
import { migrateDbosSchema } from './dbos-system-database';
import { withMigrationLock } from '../db/database';
import { DbosClientEngine } from './dbos-client-engine';
import { resolveExecutorId } from './executor-identity';
import { acquireExecutorLease } from './executor-lease';
import type { FlowQueueClass } from '../domain/flows';
import type { ActivityQueueClass } from '../domain/retry-policies';
import type { ManagedWorkflowEngine } from './workflow-engine';
import { RelaunchingEngine } from './relaunching-engine';

export interface WorkflowEngineDeps {
  config: Pick<
    Config,
    'temporal' | 'role' | 'executorId' | 'dataDir' | 'flowMaxRecoveryAttempts' | 'flowDbPoolMax' | 'tracing'
  > & {
    durations: Pick<Config['durations'], 'workflowRetentionMs' | 'executorRecoveryIntervalMs' | 'executorDeadAfterMs'>;
  };
  /** The application's database; the embedded engine keeps its journal there. */
  databaseUrl: string;
  flows: AnyFlowDefinition[];
  activities: ActivityFunctions;
  log: Logger;
}

/**
 * Heavy or slow activities run on queues partitioned by tenant (client and environment; see
 * TenantQueue), so one tenant's backlog holds at most its share of a process's slots. An activity
 * names its queue class in its flow's activity options:
 * - `renders`, print renders (sharp at print resolution, a few hundred MB each): two live renders at
 *   once per process, one per tenant, so a second shop's order always finds a slot; sandbox orders
 *   render like live ones but on a queue of their own, so a sandbox never delays a live order;
 * - `webhook-attempts` (one signed POST each, up to the outbound timeout when a receiver hangs).
 */
const ACTIVITY_QUEUES: (Omit<ActivityQueue, 'activities'> & { class: ActivityQueueClass })[] = [
  { class: 'renders', name: 'live-renders', workerConcurrency: 2, tenantConcurrency: 1, environments: ['prod'] },
  { class: 'renders', name: 'sandbox-renders', workerConcurrency: 1, tenantConcurrency: 1, environments: ['dev'] },
  { class: 'webhook-attempts', name: 'webhook-attempts', workerConcurrency: 16, tenantConcurrency: 4 },
];

/**
 * A flow's contract names the queue its runs start on. Project builds: a burst of `generate` (or a
 * campaign) is answered as soon as each build is durably enqueued, and at most 10 builds share the
 * API process's CPU with the requests, as a Temporal worker's slots would (docs/operations.md,
 * Workflow engine). One tenant runs at most 4 of them, so a shop whose photo hosts hang leaves the
 * other slots to everyone else. Campaigns (each paging through its rows, whose projects are builds
 * like any other) run 2 per tenant at once.
 */
const FLOW_QUEUES: (Omit<FlowQueue, 'flows'> & { class: FlowQueueClass })[] = [
  { class: 'builds', name: 'tenant-builds', workerConcurrency: 10, tenantConcurrency: 4 },
  { class: 'campaigns', name: 'tenant-campaigns', workerConcurrency: 8, tenantConcurrency: 2 },
];

/** The activities of `flows` whose options name a queue of `queueClass`. */
function activitiesOn(flows: AnyFlowDefinition[], queueClass: ActivityQueueClass): string[] {
  const names = flows.flatMap((flow) =>
    Object.entries(flow.activityOptions)
      .filter(([, options]) => options.queue === queueClass)
      .map(([name]) => name),
  );
  return [...new Set(names)];
}

/** The unpartitioned queues of earlier releases, kept until the runs enqueued on them have drained. */
const DRAINED_QUEUES = [
  { name: 'project-builds', workerConcurrency: 10 },
  { name: 'renders', workerConcurrency: 2 },
];

/** Every queue of the embedded engine, by name: what the queue metrics report (queue-backlog.ts). */
export const QUEUE_NAMES = [FLOW_START_QUEUE, ...ACTIVITY_QUEUES, ...FLOW_QUEUES, ...DRAINED_QUEUES].map((queue) =>
  typeof queue === 'string' ? queue : queue.name,
);

/**
 * Temporal when TEMPORAL_ADDRESS is set (flows then execute in Temporal workers: `npm run worker`),
 * otherwise DBOS Transact. An API process (ROLE=api) gets a DBOSClient that only enqueues; a process
 * that runs flows (ROLE=all or worker) launches DBOS as its own executor, holding that executor's
 * lease, resumes its own pending runs at once and takes over those of dead executors.
 */
export async function createWorkflowEngine({
  config,
  databaseUrl,
  flows,
  activities,
  log,
}: WorkflowEngineDeps): Promise<ManagedWorkflowEngine> {
  const flowNames = flows.map((flow) => flow.contract.name);
  const flowQueues = FLOW_QUEUES.map(({ class: queueClass, ...queue }) => ({
    ...queue,
    flows: flows.filter((flow) => flow.contract.queue === queueClass).map((flow) => flow.contract.name),
  }));
  if (config.temporal) {
    // Loaded only here: the Temporal client's protobuf definitions cost ~15 MiB that the embedded
    // default never uses.
    const { TemporalEngine } = await import('./temporal-engine');
    return TemporalEngine.connect({ ...config.temporal, flowNames, log });
  }
  await withMigrationLock(databaseUrl, () => migrateDbosSchema(databaseUrl, log));
  if (config.role === 'api') {
    return DbosClientEngine.connect({ databaseUrl, flowNames, flowQueues, log, poolSize: config.flowDbPoolMax });
  }

  const executorId = await resolveExecutorId(config.executorId, config.dataDir);
  const deadAfterMs = config.durations.executorDeadAfterMs;
  const queues = ACTIVITY_QUEUES.map(({ class: queueClass, ...queue }) => ({
    ...queue,
    activities: activitiesOn(flows, queueClass),
  }));
  // The lease before DBOS launches: its launch recovers this executor's pending runs, which must be
  // nobody else's by then. A lease lost to a database outage stops DBOS, which launches again under
  // a new lease once the database answers (relaunching-engine.ts): the process never exits for it.
  return RelaunchingEngine.launch({
    acquireLease: (onLost) => acquireExecutorLease({ databaseUrl, executorId, deadAfterMs, log, onLost }),
    launch: (lease) =>
      DbosEngine.launch({
        databaseUrl,
        executor: { lease, deadAfterMs, recoveryIntervalMs: config.durations.executorRecoveryIntervalMs },
        flows,
        activities,
        log,
        maxRecoveryAttempts: config.flowMaxRecoveryAttempts,
        retentionMs: config.durations.workflowRetentionMs,
        poolSize: config.flowDbPoolMax,
        queues,
        flowQueues,
        drainedQueues: DRAINED_QUEUES,
        tracing: config.tracing !== undefined,
      }),
    log,
  });
}
