import type { Environment } from '../domain/environment';

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

/** The partition of a run recorded without a tenant. */
export const UNATTRIBUTED_PARTITION = 'unattributed';

/**
 * How often a queue looks for work and a flow for its queued activity's end (DBOS's default is 1 s:
 * about a second lost per queued activity, several per fulfilment).
 */
export const QUEUE_POLL_MS = 200;
/** Queues kept only to drain what earlier releases left on them are looked at less often. */
export const DRAINED_QUEUE_POLL_MS = 5_000;

/** The queue of `environment` among an activity's queues (one with no environments takes any). */
export function queueForEnvironment(
  queues: ActivityQueue[] | undefined,
  environment: Environment,
): ActivityQueue | undefined {
  return queues?.find((queue) => !queue.environments || queue.environments.includes(environment));
}
