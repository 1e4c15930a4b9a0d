import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueueBacklog } from '../metrics/service-state';
import { DBOS_SCHEMA } from './dbos-names';

/**
 * Each of `queues`' waiting and running runs and its oldest waiting run's age, read from DBOS's
 * `workflow_status` in one grouped query over its in-flight index (status ENQUEUED or PENDING):
 * DBOS's public listing returns runs, not counts. Only the named queues are reported (a queue
 * with nothing in flight at 0), so the label takes a fixed set of values; tenants, which are
 * partitions of a queue, never appear.
 */
export async function queueBacklog(em: EntityManager, queues: string[]): Promise<QueueBacklog[]> {
  type Row = { queue_name: string; waiting: number; running: number; oldest_ms: string | null };
  const rows = await em.getConnection().execute<Row[]>(
    `SELECT queue_name,
            count(*) FILTER (WHERE status = 'ENQUEUED')::int AS waiting,
            count(*) FILTER (WHERE status = 'PENDING')::int AS running,
            min(created_at) FILTER (WHERE status = 'ENQUEUED') AS oldest_ms
       FROM "${DBOS_SCHEMA}".workflow_status
      WHERE status IN ('ENQUEUED', 'PENDING') AND queue_name IN (${queues.map(() => '?').join(', ')})
      GROUP BY queue_name`,
    queues,
  );
  const now = Date.now();
  return queues.map((queue) => {
    const row = rows.find((candidate) => candidate.queue_name === queue);
    const oldestMs = row?.oldest_ms === null || row?.oldest_ms === undefined ? undefined : Number(row.oldest_ms);
    return {
      queue,
      waiting: row?.waiting ?? 0,
      running: row?.running ?? 0,
      oldestWaitingSeconds: oldestMs === undefined ? 0 : Math.max(0, (now - oldestMs) / 1000),
    };
  });
}
