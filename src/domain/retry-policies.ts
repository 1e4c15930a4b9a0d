/**
 * How the engines time out and retry one activity of a flow (Temporal's activity options in
 * milliseconds; the DBOS runner reads the same). A flow declares the policy of each of its
 * activities; the policies several flows share are declared here once.
 */

interface RetryPolicy {
  maximumAttempts: number;
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** Error `name`s that fail the activity at once, without retrying. */
  nonRetryableErrorTypes?: string[];
}

/**
 * Where an attempt waits for a slot, partitioned by tenant: `renders` (print renders, a few hundred
 * MB each: live and sandbox orders on queues of their own) and `webhook-attempts` (one signed POST
 * each, up to the outbound timeout). Without one an activity runs inside its flow's step.
 */
export type ActivityQueueClass = 'renders' | 'webhook-attempts';

export interface ActivityPolicy {
  startToCloseTimeoutMs: number;
  retry: RetryPolicy;
  queue?: ActivityQueueClass;
}

/**
 * A short read or write of the database: retried for about two minutes, long enough to outlast a
 * database restart or failover.
 */
export const DATABASE_ACTIVITY_POLICY: ActivityPolicy = {
  startToCloseTimeoutMs: 30_000,
  retry: { maximumAttempts: 10, initialIntervalMs: 500, backoffCoefficient: 2, maximumIntervalMs: 30_000 },
};
