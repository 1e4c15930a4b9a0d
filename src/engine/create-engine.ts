import type { Logger } from 'pino';
import type { Config } from '../config';
import type { ActivityFunctions, FlowDefinition } from '../../workflows/flow-context';
import { DbosEngine, type ActivityQueue, type FlowQueue } from './dbos-engine';
import { PROJECT_BUILD_FLOW } from '../domain/flows';
import type { ManagedWorkflowEngine } from './workflow-engine';

export interface WorkflowEngineDeps {
  config: Pick<Config, 'temporal'> & { durations: Pick<Config['durations'], 'workflowRetentionMs'> };
  /** The application's database; the embedded engine keeps its journal there. */
  databaseUrl: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  flows: FlowDefinition<any, any, any>[];
  activities: ActivityFunctions;
  log: Logger;
}

/**
 * Print renders are the heavy activities (sharp at print resolution, a few hundred MB each): a
 * queue lets two run at once per process, however many fulfilments are under way.
 */
const QUEUES: ActivityQueue[] = [{ name: 'renders', workerConcurrency: 2, activities: ['renderPages', 'assemblePrintFiles'] }];

/**
 * Project builds start on a queue: a burst of `generate` (or a campaign) is answered as soon as each
 * build is durably enqueued, and at most this many builds share the API process's CPU with the
 * requests, as a Temporal worker's slots would (README, Performance).
 */
const FLOW_QUEUES: FlowQueue[] = [{ name: 'project-builds', workerConcurrency: 10, flows: [PROJECT_BUILD_FLOW] }];

/**
 * Temporal when TEMPORAL_ADDRESS is set (flows then execute in `npm run worker`), otherwise DBOS
 * Transact in this process, launched here: it resumes the runs left pending at once.
 */
export async function createWorkflowEngine({ config, databaseUrl, flows, activities, log }: WorkflowEngineDeps): Promise<ManagedWorkflowEngine> {
  if (config.temporal) {
    // Loaded only here: the Temporal client's protobuf definitions cost ~15 MiB that the embedded
    // default never uses.
    const { TemporalEngine } = await import('./temporal-engine');
    return TemporalEngine.connect({ ...config.temporal, flowNames: flows.map((flow) => flow.name), log });
  }
  const queues = QUEUES.map((queue) => ({ ...queue, activities: queue.activities.filter((name) => name in activities) }));
  return DbosEngine.launch({ databaseUrl, flows, activities, log, retentionMs: config.durations.workflowRetentionMs, queues, flowQueues: FLOW_QUEUES });
}
