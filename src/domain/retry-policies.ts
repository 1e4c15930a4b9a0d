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

export interface ActivityPolicy {
  startToCloseTimeoutMs: number;
  retry: RetryPolicy;
}

/**
 * A short read or write of the database: retried for about two minutes, long enough to outlast a
 * database restart or failover.
 */
export const DATABASE_ACTIVITY_POLICY: ActivityPolicy = {
  startToCloseTimeoutMs: 30_000,
  retry: { maximumAttempts: 10, initialIntervalMs: 500, backoffCoefficient: 2, maximumIntervalMs: 30_000 },
};
