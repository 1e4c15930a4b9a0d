import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { envelopeOf, orderingKeyOf } from './webhook-events';

/** Events a re-enabled endpoint is not sent again: the test a shop asked for back then, and the disabling itself. */
const NOT_REDELIVERED = ['webhook.test', 'endpoint.disabled'];

/**
 * On `enableWebhook(redeliver: true)`: the events that did not reach the endpoint since `since` (the
 * first failure of the streak that disabled it) go out again, to its current URL, as the same events
 * (same `webhook-id`): each delivery that failed since then in a new round, and each event recorded
 * since then without a delivery (the endpoint was disabled) that the endpoint takes in one of its own. The outbox relay starts
 * them in the order they were recorded. Runs in the caller's transaction; answers how many.
 */
export async function redeliverMissedEvents(
  tx: EntityManager,
  endpoint: { clientId: string; env: string; url: string; eventTypes: string[] | null },
  since: Date,
): Promise<number> {
  const connection = tx.getConnection();
  const trx = tx.getTransactionContext();
  type Row = {
    event_id: string;
    type: string;
    order_id: string | null;
    project_id: string | null;
    sequence: number | null;
    data: Record<string, unknown>;
    occurred_at: Date;
    position: string;
    delivery_id: string | null;
    delivery_status: string | null;
  };
  const rows = await connection.execute<Row[]>(
    `SELECT e.event_id, e.type, e.order_id, e.project_id, e.sequence, e.data, e.occurred_at, e.position,
            d.id AS delivery_id, d.status AS delivery_status
       FROM events e
       LEFT JOIN webhook_deliveries d ON d.event_key = 'event:' || e.event_id
      WHERE e.client_id = ? AND e.env = ? AND e.type NOT IN (?)
        AND (d.id IS NULL AND e.occurred_at >= ? OR d.status = 'failed' AND d.updated_at >= ?)
      ORDER BY e.position`,
    [endpoint.clientId, endpoint.env, NOT_REDELIVERED, since, since],
    'all',
    trx,
  );
  let count = 0;
  const now = new Date();
  for (const row of rows) {
    if (endpoint.eventTypes !== null && !endpoint.eventTypes.includes(row.type)) continue;
    if (row.delivery_id) {
      if (row.delivery_status !== 'failed') continue;
      await connection.execute(
        `UPDATE webhook_deliveries SET status = 'pending', round = round + 1, url = ?, dispatched_at = NULL,
                next_attempt_at = NULL, updated_at = ? WHERE id = ? AND status = 'failed'`,
        [endpoint.url, now, row.delivery_id],
        'run',
        trx,
      );
    } else {
      const payload = JSON.stringify(
        envelopeOf({
          eventId: row.event_id,
          type: row.type,
          occurredAt: new Date(row.occurred_at),
          sequence: row.sequence,
          data: row.data,
        }),
      );
      await connection.execute(
        `INSERT INTO webhook_deliveries (id, client_id, env, event_key, event, project_id, reference, url, payload,
           status, round, event_id, ordering_key, position, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?)`,
        [
          randomUUID(),
          endpoint.clientId,
          endpoint.env,
          `event:${row.event_id}`,
          row.type,
          row.project_id ?? '',
          row.order_id ?? row.event_id,
          endpoint.url,
          payload,
          row.event_id,
          row.order_id ? orderingKeyOf(row.order_id) : null,
          row.position,
          now,
          now,
        ],
        'run',
        trx,
      );
    }
    count++;
  }
  return count;
}
